import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP/1.1 server on 127.0.0.1 for atranscribe's end-to-end tests: one thread per
/// connection, keep-alive, and an answer per request that a closure decides (sent whole, or
/// trickled a byte at a time to test time limits).
final class ATranscribeServer: @unchecked Sendable {
    struct Request: Sendable {
        var head: String
        var body: [UInt8]

        /// A header's value (name matched without regard to case).
        func header(_ name: String) -> String? {
            for line in head.split(separator: "\r\n").dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                if line[..<colon].lowercased() == name.lowercased() {
                    return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        }
    }

    struct Answer: Sendable {
        var status: Int = 200
        var contentType = "application/json"
        var body: [UInt8]
        /// When set, the body goes out one byte per interval (the head at once).
        var trickle: Duration?

        static func json(_ text: String, status: Int = 200) -> Answer { Answer(status: status, body: Array(text.utf8)) }
    }

    let port: UInt16
    private let listener: Int32
    private let answer: @Sendable (Request) -> Answer
    private let lock = NSLock()
    private var stopped = false
    private var accepted = 0

    var url: String { "http://127.0.0.1:\(port)" }
    /// Connections accepted so far.
    var connections: Int { lock.withLock { accepted } }

    init(answer: @escaping @Sendable (Request) -> Answer) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0, listen(fd, 64) == 0 else { close(fd); throw CancellationError() }
        withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &length) } }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        self.answer = answer
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Stops accepting; open connections end at their next read or trickled byte.
    func stop() {
        lock.withLock { stopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 { return }
            lock.withLock { accepted += 1 }
            Thread.detachNewThread { [self] in
                serve(client)
                close(client)
            }
        }
    }

    private func serve(_ fd: Int32) {
        var buffer: [UInt8] = []
        while !isStopped, let request = readRequest(fd, &buffer) {
            let reply = answer(request)
            let head = "HTTP/1.1 \(reply.status) Test\r\nContent-Type: \(reply.contentType)\r\nContent-Length: \(reply.body.count)\r\n\r\n"
            guard let trickle = reply.trickle else {
                guard send(fd, Array(head.utf8) + reply.body) else { return }
                continue
            }
            guard send(fd, Array(head.utf8)) else { return }
            for byte in reply.body {
                Thread.sleep(forTimeInterval: Double(trickle.components.attoseconds) * 1e-18 + Double(trickle.components.seconds))
                guard !isStopped, send(fd, [byte]) else { return }
            }
        }
    }

    /// One request (head and Content-Length body), or nil at the end of the connection.
    private func readRequest(_ fd: Int32, _ buffer: inout [UInt8]) -> Request? {
        var headEnd: Int?
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            if headEnd == nil, buffer.count >= 4 {
                headEnd = (0...(buffer.count - 4)).first { buffer[$0] == 13 && buffer[$0 + 1] == 10 && buffer[$0 + 2] == 13 && buffer[$0 + 3] == 10 }
            }
            if let end = headEnd {
                let head = String(decoding: buffer[0..<end], as: UTF8.self)
                let request = Request(head: head, body: [])
                let length = Int(request.header("Content-Length") ?? "0") ?? 0
                if buffer.count >= end + 4 + length {
                    let body = Array(buffer[(end + 4)..<(end + 4 + length)])
                    buffer.removeFirst(end + 4 + length)
                    return Request(head: head, body: body)
                }
            }
            let n = read(fd, &chunk, chunk.count)
            if n <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }

    private func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }
}
