import APipeDSP
import APipeStream

/// Gathers each segment's audio from the stream and says where its transcription belongs.
///
/// Audio is mixed to mono floats and kept only as long as needed: while a segment is open, from
/// its start; otherwise the last `lookback` seconds (a segment's start event may arrive after
/// its first audio). A session without segment events is cut into fixed windows, for which the
/// collector writes `segment.start`/`segment.end` (reason `fixed`) itself.
public struct SegmentCollector {
    /// What to write next, in order.
    public enum Item {
        case packet(Packet)
        /// A transcription to place here once it is done.
        case job(SegmentJob)
        /// A message for standard error.
        case warning(String)
    }

    public let windowSeconds: Double
    public let lookbackSeconds: Double
    /// Gaps between audio blocks up to this long are filled with silence.
    public let maxGapSeconds: Double = 60

    private var session = ""
    private var rate = 0
    private var buffer: [Float] = []
    /// Frame position of `buffer[0]`.
    private var bufferStart = 0
    private var sawSegments = false
    private var sawAudio = false
    private var open: (index: Int, start: Double)?
    private var windowIndex = 0
    private var scratch: [Float] = []
    private var mixed: [Float] = []

    public init(windowSeconds: Double = 30, lookbackSeconds: Double = 10) {
        self.windowSeconds = windowSeconds
        self.lookbackSeconds = lookbackSeconds
    }

    private var bufferEnd: Int { bufferStart + buffer.count }
    private var windowMode: Bool { !sawSegments }

    /// Handles one packet.
    public mutating func consume(_ packet: Packet) -> [Item] {
        switch packet {
        case .format(let format):
            changeRate(to: format.rate)
            return [.packet(packet)]
        case .audio(let block):
            if block.format.rate != rate { changeRate(to: block.format.rate) }
            var items: [Item] = [.packet(packet)]
            append(block, warnings: &items)
            if windowMode { items += fullWindows() } else if open == nil { trimToLookback() }
            return items
        case .event(let event):
            return consume(event, packet: packet)
        }
    }

    /// Drains at the end of input: the open segment or the last partial window.
    public mutating func finish() -> [Item] {
        closeSession()
    }

    private mutating func consume(_ event: Event, packet: Packet) -> [Item] {
        switch event.type {
        case SessionStart.type:
            var items = closeSession()
            reset()
            session = (try? event.decode(SessionStart.self))?.session ?? ""
            items.append(.packet(packet))
            return items
        case SessionEnd.type:
            var items = closeSession()
            items.append(.packet(packet))
            reset()
            return items
        case SegmentStart.type:
            guard let start = try? event.decode(SegmentStart.self) else {
                return [.warning("ignoring a segment.start event with bad fields"), .packet(packet)]
            }
            var items: [Item] = []
            if !sawSegments && windowIndex > 0 {
                items.append(.warning("segment events began after \(windowIndex) fixed windows in session \(session); segment indexes may repeat"))
            }
            sawSegments = true
            if session.isEmpty { session = start.session }
            if let open { items.append(contentsOf: segmentJob(index: open.index, start: open.start, end: start.start)) }
            open = (start.index, start.start)
            dropBefore(frame(start.start))
            items.append(.packet(packet))
            return items
        case SegmentEnd.type:
            guard let end = try? event.decode(SegmentEnd.self) else {
                return [.warning("ignoring a segment.end event with bad fields"), .packet(packet)]
            }
            sawSegments = true
            if session.isEmpty { session = end.session }
            guard let open, open.index == end.index else { return [.packet(packet)] }
            self.open = nil
            var items: [Item] = [.packet(packet)]
            items.append(contentsOf: segmentJob(index: end.index, start: open.start, end: end.end))
            trimToLookback()
            return items
        default:
            return [.packet(packet)]
        }
    }

    private mutating func reset() {
        session = ""
        buffer.removeAll(keepingCapacity: true)
        bufferStart = 0
        sawSegments = false
        sawAudio = false
        open = nil
        windowIndex = 0
    }

    /// Ends what the session still holds: an open segment, a partial window, a note about no audio.
    private mutating func closeSession() -> [Item] {
        var items: [Item] = []
        if let open {
            let end = rate > 0 ? Double(bufferEnd) / Double(rate) : open.start
            items.append(contentsOf: segmentJob(index: open.index, start: open.start, end: max(open.start, end)))
            self.open = nil
        } else if windowMode && !buffer.isEmpty {
            items.append(contentsOf: windowJob(upTo: bufferEnd))
        }
        if !sawAudio && (!session.isEmpty || sawSegments) {
            items.append(.warning("session \(session.isEmpty ? "(unnamed)" : session) carried no audio; nothing to transcribe"))
            sawAudio = true
        }
        return items
    }

    private func frame(_ seconds: Double) -> Int { rate > 0 ? Int((seconds * Double(rate)).rounded()) : 0 }

    /// The job for a segment: the buffered frames in `[start, end)`.
    private func segmentJob(index: Int, start: Double, end: Double) -> [Item] {
        let lower = max(frame(start), bufferStart)
        let upper = min(max(frame(end), lower), bufferEnd)
        let samples = lower < upper ? Array(buffer[(lower - bufferStart)..<(upper - bufferStart)]) : []
        return [.job(SegmentJob(session: session, index: index, start: start, end: end, audio: SegmentAudio(samples: samples, rate: max(rate, 1))))]
    }

    /// Windows that the buffered audio has completed.
    private mutating func fullWindows() -> [Item] {
        var items: [Item] = []
        let length = max(1, frame(windowSeconds))
        if buffer.isEmpty { return items }
        windowIndex = max(windowIndex, bufferStart / length)
        while bufferEnd >= (windowIndex + 1) * length {
            items.append(contentsOf: windowJob(upTo: (windowIndex + 1) * length))
        }
        return items
    }

    /// Emits window `windowIndex` with the buffered audio before `limit`, and drops that audio.
    private mutating func windowJob(upTo limit: Int) -> [Item] {
        let lower = bufferStart
        let upper = min(limit, bufferEnd)
        let index = windowIndex
        windowIndex += 1
        guard lower < upper else { return [] }
        let start = Double(lower) / Double(rate)
        let end = Double(upper) / Double(rate)
        let samples = Array(buffer[0..<(upper - lower)])
        dropBefore(upper)
        let job = SegmentJob(session: session, index: index, start: start, end: end, audio: SegmentAudio(samples: samples, rate: rate))
        return [
            .packet(.event(Event(SegmentStart(session: session, index: index, start: start)))),
            .packet(.event(Event(SegmentEnd(session: session, index: index, start: start, end: end, probability: nil, reason: "fixed")))),
            .job(job),
        ]
    }

    /// Places a block's frames, mixed to mono, after the buffered ones.
    private mutating func append(_ block: AudioBlock, warnings: inout [Item]) {
        guard block.frames > 0 else { return }
        sawAudio = true
        scratch.removeAll(keepingCapacity: true)
        block.appendSamples(to: &scratch)
        if block.format.encoding == .f32le { Self.clean(&scratch) }
        let channels = block.format.channels
        var position = block.position
        var first = 0
        if buffer.isEmpty {
            bufferStart = position
        } else if position > bufferEnd {
            let gap = position - bufferEnd
            if gap <= frame(maxGapSeconds) {
                buffer.append(contentsOf: repeatElement(0, count: gap))
            } else {
                if open != nil { warnings.append(.warning("audio jumps \(gap) frames forward inside segment \(open?.index ?? 0); the gap is not transcribed")) }
                buffer.removeAll(keepingCapacity: true)
                bufferStart = position
            }
        } else if position < bufferEnd {
            if position < bufferStart {
                buffer.removeAll(keepingCapacity: true)
                bufferStart = position
            } else {
                first = bufferEnd - position
                position = bufferEnd
            }
        }
        guard first < block.frames else { return }
        if channels == 1 {
            buffer.append(contentsOf: scratch[first...])
        } else {
            scratch.withUnsafeBufferPointer { all in
                ChannelMixer(inputChannels: channels, outputChannels: 1).mix(UnsafeBufferPointer(rebasing: all[(first * channels)...]), into: &mixed)
            }
            buffer.append(contentsOf: mixed)
        }
    }

    /// NaN to silence and everything else into [-1, 1]: float input can carry any bit pattern,
    /// and one NaN or 3e38 would spread through resampling and mixing into every engine's input.
    static func clean(_ samples: inout [Float]) {
        samples.withUnsafeMutableBufferPointer { buffer in
            for i in buffer.indices {
                let x = buffer[i]
                buffer[i] = x.isNaN ? 0 : Swift.min(1, Swift.max(-1, x))
            }
        }
    }

    /// Drops buffered frames before `frame`.
    private mutating func dropBefore(_ frame: Int) {
        let count = min(max(0, frame - bufferStart), buffer.count)
        guard count > 0 else { return }
        buffer.removeFirst(count)
        bufferStart += count
    }

    /// Keeps the last `lookback` seconds, trimming in batches so the copy is not per block.
    private mutating func trimToLookback() {
        let keep = frame(lookbackSeconds)
        if buffer.count > 2 * keep { dropBefore(bufferEnd - keep) }
    }

    /// Converts what is buffered to a new rate, keeping positions consistent.
    private mutating func changeRate(to newRate: Int) {
        defer { rate = newRate }
        guard rate > 0, newRate != rate, !buffer.isEmpty else { return }
        let ratio = Double(newRate) / Double(rate)
        buffer = SegmentAudio(samples: buffer, rate: rate).resampled(to: newRate).samples
        bufferStart = Int((Double(bufferStart) * ratio).rounded())
    }
}
