import FlyingFox
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An OpenAI-style `/v1/audio/transcriptions` server on 127.0.0.1 whose answers a script
/// decides: the next fault for each request, then the default answer.
final class FakeTranscriptionServer: @unchecked Sendable {
    indirect enum Answer: Sendable {
        /// verbose_json with the uploaded duration in the text.
        case transcript
        /// `{"text": ...}` only.
        case plainJSON(String)
        case plainText(String)
        case delayed(milliseconds: Int, Answer)
        case status(Int, body: String, retryAfter: String?)
        case malformedJSON
        case html
        /// `status` with an error message of `prefix` and the request's `Authorization` header.
        case echoAuthorization(Int, prefix: String)
    }

    struct Request: Sendable {
        var authorization: String?
        var fields: [String: String]
        /// Seconds of 16-bit mono audio in the uploaded WAV, and its rate.
        var seconds: Double
        var rate: Int
        var bytes: Int
    }

    let port: UInt16
    let apiKey: String?
    private let server: HTTPServer
    private let task: Task<Void, any Error>
    private let lock = NSLock()
    private var script: [Answer]
    private let fallback: Answer
    private var log: [Request] = []

    var url: String { "http://127.0.0.1:\(port)" }
    var requests: [Request] { lock.lock(); defer { lock.unlock() }; return log }

    static func start(script: [Answer] = [], answer: Answer = .transcript, apiKey: String? = "sk-test-SECRET-123") async throws -> FakeTranscriptionServer {
        let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 60, logger: .disabled)
        let task = Task { try await server.run() }
        // Whisper tests running beside these keep both cores (and Swift's cooperative pool) busy:
        // the bound is only against a hang.
        try await server.waitUntilListening(timeout: 120)
        guard case .ip4(_, let port) = await server.listeningAddress else { throw CancellationError() }
        let fake = FakeTranscriptionServer(server: server, task: task, port: port, script: script, answer: answer, apiKey: apiKey)
        await server.appendRoute("POST /v1/audio/transcriptions") { request in try await fake.handle(request) }
        return fake
    }

    private init(server: HTTPServer, task: Task<Void, any Error>, port: UInt16, script: [Answer], answer: Answer, apiKey: String?) {
        self.server = server
        self.task = task
        self.port = port
        self.script = script
        self.fallback = answer
        self.apiKey = apiKey
    }

    func stop() async {
        await server.stop()
        task.cancel()
    }

    private func next() -> Answer {
        lock.lock()
        defer { lock.unlock() }
        return script.isEmpty ? fallback : script.removeFirst()
    }

    private func handle(_ request: HTTPRequest) async throws -> HTTPResponse {
        let body = [UInt8](try await request.bodyData)
        let recorded = Self.parse(body, authorization: request.headers[HTTPHeader("Authorization")])
        lock.withLock { log.append(recorded) }
        if let apiKey, recorded.authorization != "Bearer \(apiKey)" {
            return Self.json(401, #"{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}"#)
        }
        return try await respond(next(), to: recorded)
    }

    private func respond(_ answer: Answer, to request: Request) async throws -> HTTPResponse {
        switch answer {
        case .transcript:
            let seconds = String(format: "%.2f", request.seconds)
            let half = request.seconds / 2
            let verbose = request.fields["response_format"] == "verbose_json"
            let text = "heard \(seconds) s"
            guard verbose else { return Self.json(200, #"{"text":"\#(text)"}"#) }
            return Self.json(200, """
                {"task":"transcribe","language":"english","duration":\(request.seconds),"text":" \(text)","segments":[\
                {"id":0,"start":0.0,"end":\(half),"text":" heard","avg_logprob":-0.1,"no_speech_prob":0.01},\
                {"id":1,"start":\(half),"end":\(request.seconds),"text":" \(seconds) s","avg_logprob":-0.3,"no_speech_prob":0.02}]}
                """)
        case .plainJSON(let text):
            return Self.json(200, #"{"text":"\#(text)"}"#)
        case .plainText(let text):
            return HTTPResponse(statusCode: .ok, headers: [.contentType: "text/plain; charset=utf-8"], body: Data(text.utf8))
        case .delayed(let milliseconds, let then):
            try? await Task.sleep(for: .milliseconds(milliseconds))
            return try await respond(then, to: request)
        case .status(let code, let body, let retryAfter):
            var response = Self.json(code, body)
            if let retryAfter { response.headers[HTTPHeader("Retry-After")] = retryAfter }
            return response
        case .malformedJSON:
            return Self.json(200, #"{"text": "cut off"#)
        case .html:
            return HTTPResponse(statusCode: .ok, headers: [.contentType: "text/html"], body: Data("<!DOCTYPE html><html><body>Welcome to nginx!</body></html>".utf8))
        case .echoAuthorization(let code, let prefix):
            return Self.json(code, #"{"error":{"message":"\#(prefix)\#(request.authorization ?? "")"}}"#)
        }
    }

    private static func json(_ code: Int, _ body: String) -> HTTPResponse {
        HTTPResponse(statusCode: HTTPStatusCode(code, phrase: "Test"), headers: [.contentType: "application/json"], body: Data(body.utf8))
    }

    /// Pulls the form fields and the WAV's size out of a multipart body.
    static func parse(_ body: [UInt8], authorization: String?) -> Request {
        var fields: [String: String] = [:]
        var seconds = 0.0
        var rate = 0
        let marker = Array("Content-Disposition: form-data; name=\"".utf8)
        var i = 0
        while let found = find(marker, in: body, from: i) {
            let nameStart = found + marker.count
            guard let nameEnd = body[nameStart...].firstIndex(of: UInt8(ascii: "\"")),
                let valueStart = find(Array("\r\n\r\n".utf8), in: body, from: nameEnd).map({ $0 + 4 })
            else { break }
            let name = String(decoding: body[nameStart..<nameEnd], as: UTF8.self)
            if name == "file", valueStart + 44 <= body.count {
                let header = Array(body[valueStart..<valueStart + 44])
                rate = Int(header[24]) | Int(header[25]) << 8 | Int(header[26]) << 16 | Int(header[27]) << 24
                let size = Int(header[40]) | Int(header[41]) << 8 | Int(header[42]) << 16 | Int(header[43]) << 24
                seconds = rate > 0 ? Double(size / 2) / Double(rate) : 0
                i = valueStart + 44 + size
            } else if let end = find(Array("\r\n".utf8), in: body, from: valueStart) {
                fields[name] = String(decoding: body[valueStart..<end], as: UTF8.self)
                i = end
            } else {
                break
            }
        }
        return Request(authorization: authorization, fields: fields, seconds: seconds, rate: rate, bytes: body.count)
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, start >= 0, haystack.count >= needle.count else { return nil }
        var i = start
        while i + needle.count <= haystack.count {
            if haystack[i] == needle[0] && Array(haystack[i..<i + needle.count]) == needle { return i }
            i += 1
        }
        return nil
    }
}

/// A TCP server on 127.0.0.1 that accepts connections and closes them without a word.
final class DroppingServer: @unchecked Sendable {
    let port: UInt16
    private let fd: Int32

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) } }
        guard bound == 0, listen(listener, 64) == 0 else { close(listener); throw CancellationError() }
        withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(listener, $0, &length) } }
        fd = listener
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread {
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 { return }
                var buffer = [UInt8](repeating: 0, count: 1024)
                _ = read(client, &buffer, buffer.count)
                close(client)
            }
        }
    }

    func stop() { shutdown(fd, Int32(SHUT_RDWR)); close(fd) }

    /// A port on 127.0.0.1 with nothing listening.
    static func closedPort() -> UInt16 {
        let server = try? DroppingServer()
        let port = server?.port ?? 9
        server?.stop()
        return port
    }
}
