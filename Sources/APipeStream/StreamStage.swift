/// A filter over a stream, in the spirit of a sox effect: it consumes packets one by one and
/// writes what it produces, then drains at the end.
///
/// A stage passes every event it does not understand on unchanged and in order.
public protocol StreamStage {
    /// Handles one packet, writing any output to `output`.
    mutating func consume(_ packet: Packet, output: StreamWriter) throws
    /// Drains what the stage still holds. `interrupted` is true when the input broke off.
    mutating func finish(output: StreamWriter, interrupted: Bool) throws
}

/// Runs a stage from a reader to a writer, with the stream's end rules.
public enum StreamPump {
    /// Pumps until the input ends. On a clean end the output gets its end marker. When the input
    /// breaks off (interrupted or corrupt after a valid start, or the stage is stopped by a
    /// signal: `FilterSignals`), the stage is drained, a
    /// `stream.interrupted` event is written and the output is left without an end marker, so
    /// the stages below keep everything and know it is incomplete; then the error is rethrown.
    public static func run<S: StreamStage>(_ stage: inout S, name: String, input: StreamReader, output: StreamWriter) throws {
        do {
            while true {
                // Flush before the reader may block, so live audio does not wait in our buffer.
                if input.bufferedByteCount < PacketLimits.headerSize { try output.flush() }
                guard let packet = try input.next() else { break }
                try stage.consume(packet, output: output)
            }
        } catch let error as StreamError {
            switch error {
            case .brokenPipe, .terminalOutput, .empty, .notAStream, .unsupportedVersion:
                throw error
            case .interrupted(let offset), .corrupt(let offset, _), .stopped(_, let offset):
                try stage.finish(output: output, interrupted: true)
                try output.write(event: StreamInterrupted(stage: name, offset: offset, reason: error.description))
                try output.flush()
                throw error
            case .io:
                throw error
            }
        }
        try stage.finish(output: output, interrupted: false)
        try output.finish()
    }
}
