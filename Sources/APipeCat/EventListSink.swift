import APipeStream

/// `acat --events`: every packet as a JSON line. Events are printed byte for byte; format
/// records become `{"type":"format",...}`; contiguous audio is summarised as one
/// `{"type":"audio",...}` line per run (position, frames, time and duration in seconds).
public struct EventListSink: CatSink {
    private let emit: (String) throws -> Void
    private var run: (position: Int, frames: Int, format: AudioFormat)?

    /// `emit` receives each line without its newline.
    public init(emit: @escaping (String) throws -> Void) {
        self.emit = emit
    }

    public mutating func consume(_ packet: Packet) throws {
        switch packet {
        case .format(let format):
            try flushRun()
            try emit(#"{"type":"format","encoding":"\#(format.encoding)","rate":\#(format.rate),"channels":\#(format.channels)}"#)
        case .audio(let block):
            if let current = run, current.position + current.frames == block.position, current.format == block.format {
                run?.frames += block.frames
            } else {
                try flushRun()
                run = (block.position, block.frames, block.format)
            }
        case .event(let event):
            try flushRun()
            try emit(event.text)
        }
    }

    public mutating func close(interrupted: Bool) throws {
        try flushRun()
    }

    private mutating func flushRun() throws {
        guard let current = run else { return }
        run = nil
        let t = current.format.seconds(current.position)
        let duration = current.format.seconds(current.frames)
        try emit(#"{"type":"audio","position":\#(current.position),"frames":\#(current.frames),"t":\#(Self.seconds(t)),"duration":\#(Self.seconds(duration))}"#)
    }

    /// Seconds with microsecond resolution and no float noise.
    static func seconds(_ value: Double) -> String {
        let micro = (value * 1_000_000).rounded() / 1_000_000
        return micro == micro.rounded() ? String(Int(micro)) + ".0" : "\(micro)"
    }
}
