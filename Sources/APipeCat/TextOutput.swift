import APipeStream

/// Buffered lines of text to a file descriptor.
public final class TextOutput {
    private let fd: Int32
    private var buffer: [UInt8] = []

    public init(fd: Int32 = 1) {
        self.fd = fd
    }

    public func line(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { try flush() }
    }

    public func flush() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { try SystemIO.writeAll(fd, $0) }
        buffer.removeAll(keepingCapacity: true)
    }
}
