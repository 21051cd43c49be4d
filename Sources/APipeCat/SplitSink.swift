import APipeAudio
import APipeStream

/// `acat -o DIR`: each session to `DIR/session-ID.wav` and each segment to
/// `DIR/session-ID-segment-NNN.wav` (16-bit WAV; ID is the first 8 characters of the UUID).
/// Files appear under their final names only when complete.
public struct SplitSink: CatSink {
    private let directory: String
    private var session: String?
    private var sessionFile: SoundFileWriter?
    private var segmentFile: SoundFileWriter?
    private var segmentStartFrame = 0
    private var format: AudioFormat?
    private var samples: [Float] = []
    public private(set) var written: [String] = []

    public init(directory: String) {
        self.directory = directory
    }

    public mutating func consume(_ packet: Packet) throws {
        switch packet {
        case .format(let newFormat):
            format = newFormat
        case .audio(let block):
            samples.removeAll(keepingCapacity: true)
            block.appendSamples(to: &samples)
            try samples.withUnsafeBufferPointer { all in
                try sessionFile?.write(all)
                guard let segmentFile else { return }
                let skip = max(0, min(block.frames, segmentStartFrame - block.position)) * block.format.channels
                try segmentFile.write(UnsafeBufferPointer(rebasing: all[skip...]))
            }
        case .event(let event):
            if let start = try event.decode(SessionStart.self) {
                try closeFiles()
                let id = String(start.session.prefix(8))
                session = id
                sessionFile = try open("session-\(id).wav")
            } else if try event.decode(SessionEnd.self) != nil {
                try closeFiles()
                session = nil
            } else if let start = try event.decode(SegmentStart.self) {
                try closeSegment()
                guard let format, let session else { return }
                segmentStartFrame = Int((start.start * Double(format.rate)).rounded())
                let number = String(start.index + 1000).dropFirst()
                segmentFile = try open("session-\(session)-segment-\(number).wav")
            } else if try event.decode(SegmentEnd.self) != nil {
                try closeSegment()
            }
        }
    }

    public mutating func close(interrupted: Bool) throws {
        try closeFiles()
    }

    private func open(_ name: String) throws -> SoundFileWriter? {
        guard let format else { return nil }
        return try SoundFileWriter(path: directory + "/" + name, rate: format.rate, channels: format.channels)
    }

    private mutating func closeSegment() throws {
        if let file = segmentFile {
            try file.close()
            written.append(file.path)
        }
        segmentFile = nil
    }

    private mutating func closeFiles() throws {
        try closeSegment()
        if let file = sessionFile {
            try file.close()
            written.append(file.path)
        }
        sessionFile = nil
    }
}
