import APipeStream

/// Bytes and lines of text to a file descriptor, written in large chunks.
public final class BufferedOutput {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private static let chunk = 1 << 17

    public init(fd: Int32 = 1) {
        self.fd = fd
        buffer.reserveCapacity(Self.chunk)
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.chunk { try flush() }
    }

    public func line(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        buffer.append(0x0A)
        if buffer.count >= Self.chunk { try flush() }
    }

    public func flush() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { try SystemIO.writeAll(fd, $0) }
        buffer.removeAll(keepingCapacity: true)
    }
}
