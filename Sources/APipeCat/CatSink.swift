import APipeStream

/// One way out of the stream: `acat` feeds every packet to a sink, then closes it.
public protocol CatSink {
    mutating func consume(_ packet: Packet) throws
    /// Called once at the end; `interrupted` when the input broke off.
    mutating func close(interrupted: Bool) throws
}

/// Reads a whole stream into a sink. An interrupted input still closes the sink (what arrived is
/// kept) before the error goes up for the exit status.
public enum CatRunner {
    public static func run<S: CatSink>(_ sink: inout S, input: StreamReader) throws {
        do {
            while let packet = try input.next() { try sink.consume(packet) }
        } catch let error as StreamError {
            switch error {
            case .interrupted, .corrupt, .stopped:
                try sink.close(interrupted: true)
            default:
                break
            }
            throw error
        }
        try sink.close(interrupted: false)
    }
}
