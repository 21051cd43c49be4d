import APipeAudio
import APipeStream

/// The audio side of one session being ingested: the session WAV and the WAVs of the segments
/// still open, fed from the stream's blocks by position.
///
/// A short look-back of recent blocks lets a segment whose start event arrives after its first
/// audio (a VAD decides late) still get all of its audio. Memory is bounded by that look-back.
final class IngestAudio {
    static let lookBackBytes = 4 << 20
    /// The longest gap in positions filled with silence: a day. A gap is silence dropped upstream
    /// (`asegment --drop-silence`) or lost audio; a longer one is a corrupt position, which would
    /// otherwise fill the disk with zeros.
    static let maxGapSeconds = 86_400

    /// A block whose position lies further past the audio before it than `maxGapSeconds`.
    struct GapTooLong: Error, CustomStringConvertible {
        let position: Int
        let gap: Int
        let rate: Int

        var description: String {
            "audio position \(position) leaves a gap of \(gap) frames at \(rate) Hz, more than the \(IngestAudio.maxGapSeconds / 3600) hours aindex fills with silence"
        }
    }

    /// The session WAV, or nil when the library already holds the session's audio.
    private(set) var sessionFile: SoundFileWriter?
    private let sessionPath: String?
    private var sessionFormat: AudioFormat?
    private var sessionStopped = false
    /// Open segment writers by index, with their frame range at the current rate.
    private var segments: [Int: OpenSegment] = [:]
    private var lookBack: [AudioBlock] = []
    private var lookBackSize = 0
    /// One past the last frame seen.
    private(set) var frontier = 0
    private var warn: (String) -> Void

    final class OpenSegment {
        let index: Int
        let start: Double
        var end: Double?
        let path: String
        var writer: SoundFileWriter?
        var written = 0

        init(index: Int, start: Double, path: String) {
            self.index = index
            self.start = start
            self.path = path
        }
    }

    init(sessionPath: String?, warn: @escaping (String) -> Void) {
        self.sessionPath = sessionPath
        self.warn = warn
    }

    /// Frames of session audio written.
    var sessionFrames: Int { sessionFile?.frames ?? 0 }
    var rate: Int? { sessionFormat?.rate }

    /// Feeds one block to the session file and every open segment.
    func write(_ block: AudioBlock) throws -> [OpenSegment] {
        try writeSession(block)
        lookBack.append(block)
        lookBackSize += block.bytes.count
        while lookBackSize > IngestAudio.lookBackBytes, lookBack.count > 1 {
            lookBackSize -= lookBack.removeFirst().bytes.count
        }
        frontier = max(frontier, block.position + block.frames)
        var finished: [OpenSegment] = []
        for segment in segments.values {
            try feed(segment, block)
            if let end = segment.end, frontier >= frame(end, block.format) { finished.append(segment) }
        }
        for segment in finished { segments[segment.index] = nil }
        return finished
    }

    /// Opens a segment writer and feeds it the look-back.
    func openSegment(index: Int, start: Double, path: String) throws {
        guard segments[index] == nil else { return }
        let segment = OpenSegment(index: index, start: start, path: path)
        segments[index] = segment
        for block in lookBack { try feed(segment, block) }
    }

    var hasOpenSegments: Bool { !segments.isEmpty }

    func isOpen(_ index: Int) -> Bool { segments[index] != nil }

    /// Marks a segment's end; returns it when its audio is already complete.
    func closeSegment(index: Int, end: Double) -> OpenSegment? {
        guard let segment = segments[index] else { return nil }
        segment.end = end
        guard let format = lookBack.last?.format, frontier < frame(end, format) else {
            segments[index] = nil
            return segment
        }
        return nil
    }

    /// Every segment still open (at the end of a session).
    func drainSegments() -> [OpenSegment] {
        let open = segments.values.sorted { $0.index < $1.index }
        segments = [:]
        return open
    }

    /// The frame at `seconds`, clamped so that an absurd time in an event cannot trap.
    private func frame(_ seconds: Double, _ format: AudioFormat) -> Int {
        let frame = (seconds * Double(format.rate)).rounded()
        return frame.isNaN ? 0 : Int(max(-Double(1 << 62), min(Double(1 << 62), frame)))
    }

    private func writeSession(_ block: AudioBlock) throws {
        guard let sessionPath, !sessionStopped else { return }
        if sessionFile == nil {
            sessionFile = try Library.makeWriter(path: sessionPath, format: block.format)
            sessionFormat = block.format
        }
        guard let file = sessionFile else { return }
        if let format = sessionFormat, format.rate != block.format.rate || format.channels != block.format.channels {
            warn("format changed mid-session (\(format) to \(block.format)); session audio kept up to the change")
            sessionStopped = true
            return
        }
        try write(block, to: file, from: 0)
    }

    private func feed(_ segment: OpenSegment, _ block: AudioBlock) throws {
        let first = frame(segment.start, block.format)
        let last = segment.end.map { frame($0, block.format) } ?? Int.max
        let from = max(first, block.position)
        let to = min(last, block.position + block.frames)
        guard from < to, block.position + block.frames > first + segment.written else { return }
        if segment.writer == nil {
            segment.writer = try Library.makeWriter(path: segment.path, format: block.format)
        }
        guard let writer = segment.writer, writer.rate == block.format.rate, writer.channels == block.format.channels else { return }
        let before = writer.frames
        try write(block, to: writer, from: first, until: last)
        segment.written += writer.frames - before
    }

    /// Writes the part of `block` at or after frame `origin + writer.frames` and before `until`,
    /// padding a gap in positions with silence.
    private func write(_ block: AudioBlock, to writer: SoundFileWriter, from origin: Int, until: Int = Int.max) throws {
        let next = origin + writer.frames
        let blockEnd = min(block.position + block.frames, until)
        guard blockEnd > next else { return }
        let gap = min(block.position, blockEnd) - next
        guard gap <= IngestAudio.maxGapSeconds * block.format.rate else {
            throw GapTooLong(position: block.position, gap: gap, rate: block.format.rate)
        }
        if gap > 0 { try writer.writeSilence(frames: gap) }
        let skip = max(0, origin + writer.frames - block.position)
        let count = blockEnd - (block.position + skip)
        guard count > 0 else { return }
        let bpf = block.format.bytesPerFrame
        try block.bytes.withUnsafeBytes { raw in
            try writer.write(encoded: UnsafeRawBufferPointer(rebasing: raw[(skip * bpf)..<((skip + count) * bpf)]), encoding: block.format.encoding)
        }
    }
}
