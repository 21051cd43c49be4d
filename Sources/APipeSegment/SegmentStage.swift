import APipeDSP
import APipeStream

/// The `asegment` stage: passes every packet on in order and puts `segment.start` /
/// `segment.end` events around the audio of each segment, at the exact sample where it begins
/// or ends (blocks are split there). Audio waits only until the segmenter has decided its span
/// (VAD look-ahead, `pad`, `minSilence`, or the max-length search window), so memory stays bounded.
///
/// With `dropSilence` only audio inside segments goes on; positions stay true. A session's end
/// (or the next session's start) closes its open segment (end-of-stream) before the event goes
/// on, and indices count from 0 in each session. A format change closes the open segment and
/// starts afresh at the new format; indices go on within the session.
/// Gaps in positions up to 10 s are heard as silence; a longer gap also starts afresh.
public final class SegmentStage: StreamStage {
    public let options: SegmenterOptions
    public let dropSilence: Bool
    private let labels: LabelWriter?
    private var session = ""
    private var format: AudioFormat?
    private var vad: VAD?
    private var segmenter: Segmenter?
    private var fixed: FixedSegmenter?
    private var nextIndex = 0
    /// Position (frames) where this format's analysis began, and where its input has reached.
    private var epochStart = 0
    private var inputEnd = 0
    private var started = false
    private var inSegment = false
    /// Packets not yet passed on, oldest first, and segmenter events not yet written.
    private var held: [Packet] = []
    private var heldHead = 0
    private var events: [SegmenterEvent] = []
    private var eventHead = 0
    private var samples: [Float] = []
    private var frames: [VADFrame] = []
    private let maxGapSeconds = 10.0

    /// Creates the stage; `labels` receives each finished segment as an Audacity label line.
    public init(options: SegmenterOptions, dropSilence: Bool = false, labels: LabelWriter? = nil) throws(SegmenterOptionError) {
        try options.validate()
        self.options = options
        self.dropSilence = dropSilence
        self.labels = labels
    }

    public func consume(_ packet: Packet, output: StreamWriter) throws {
        switch packet {
        case .format(let newFormat):
            try endEpoch(output: output)
            format = newFormat
            started = false
            held.append(packet)
        case .event(let event):
            let start = try? event.decode(SessionStart.self)
            if start != nil || (try? event.decode(SessionEnd.self)) != nil {
                // Segments belong to their session: close them before its end (or the next
                // session's start) goes on, so no segment event trails its session.end.
                try endEpoch(output: output)
            }
            if let start {
                session = start.session
                nextIndex = 0
            }
            held.append(packet)
            if !started { try release(upTo: .max, output: output) }
        case .audio(let block):
            if block.format != format {
                try endEpoch(output: output)
                format = block.format
                started = false
            }
            if started, block.position != inputEnd {
                let gap = block.position - inputEnd
                if gap < 0 || block.format.seconds(gap) > maxGapSeconds {
                    try endEpoch(output: output)
                    started = false
                } else {
                    try analyse(silence: gap, format: block.format)
                }
            }
            if !started { try startEpoch(at: block.position, format: block.format) }
            held.append(packet)
            try analyse(block)
            try release(upTo: decidedPosition(), output: output)
        }
    }

    public func finish(output: StreamWriter, interrupted: Bool) throws {
        try endEpoch(output: output)
        try release(upTo: .max, output: output)
        try labels?.close()
    }

    private func startEpoch(at position: Int, format: AudioFormat) throws {
        epochStart = position
        inputEnd = position
        started = true
        if let length = options.fixed {
            fixed = FixedSegmenter(length: length, firstIndex: nextIndex)
            return
        }
        guard format.rate >= 4000 else { throw SegmentStageError.rateTooLow(format.rate) }
        let configuration = VADConfiguration(
            sampleRate: Double(format.rate), channels: format.channels, hop: 0.01, aggressiveness: options.aggressiveness)
        do {
            let detector = try VAD(configuration)
            vad = detector
            segmenter = try Segmenter(options: options, frameDuration: detector.frameDuration, firstIndex: nextIndex)
        } catch {
            throw SegmentStageError.analysis("\(error)")
        }
    }

    /// Closes the current format's analysis: flushes the VAD, closes any open segment, and
    /// releases everything held (all of it is decided now).
    private func endEpoch(output: StreamWriter) throws {
        guard started, let format else { return }
        let end = format.seconds(inputEnd)
        if let vad, let segmenter {
            frames.removeAll(keepingCapacity: true)
            vad.finish(into: &frames)
            feed(frames, to: segmenter)
            var closing: [SegmenterEvent] = []
            segmenter.finish(streamEnd: end - format.seconds(epochStart), into: &closing)
            enqueue(closing)
            nextIndex = segmenter.nextIndex
        } else if var fixed {
            fixed.finish(at: end, into: &events)
            nextIndex = fixed.nextIndex
        }
        vad = nil
        segmenter = nil
        fixed = nil
        try release(upTo: .max, output: output)
        started = false
    }

    /// Queues segmenter events, whose times are relative to the epoch start, in session time.
    private func enqueue(_ relative: [SegmenterEvent]) {
        guard let format else { return }
        let offset = format.seconds(epochStart)
        for event in relative {
            switch event {
            case .start(let index, let time):
                events.append(.start(index: index, time: time + offset))
            case .end(var segment):
                segment.start += offset
                segment.end += offset
                events.append(.end(segment))
            }
        }
    }

    private func analyse(_ block: AudioBlock) throws {
        inputEnd = block.position + block.frames
        if var fixed {
            fixed.advance(audioStart: block.format.seconds(epochStart), to: block.format.seconds(inputEnd), into: &events)
            self.fixed = fixed
            return
        }
        guard let vad, let segmenter else { return }
        samples.removeAll(keepingCapacity: true)
        block.appendSamples(to: &samples)
        frames.removeAll(keepingCapacity: true)
        samples.withUnsafeBufferPointer { vad.process($0, into: &frames) }
        feed(frames, to: segmenter)
    }

    /// Feeds `count` frames of silence (a gap in positions) to the analysis.
    private func analyse(silence count: Int, format: AudioFormat) throws {
        var left = count
        while left > 0 {
            let n = min(left, 4096)
            let zeros = [UInt8](repeating: 0, count: n * format.bytesPerFrame)
            try analyse(AudioBlock(position: inputEnd, format: format, bytes: zeros))
            left -= n
        }
    }

    private func feed(_ frames: [VADFrame], to segmenter: Segmenter) {
        var out: [SegmenterEvent] = []
        for f in frames {
            segmenter.push(probability: f.probability, level: f.features.levelDB, into: &out)
        }
        if !out.isEmpty { enqueue(out) }
    }

    private func decidedPosition() -> Int {
        guard let format else { return 0 }
        if fixed != nil { return inputEnd }
        guard let segmenter else { return inputEnd }
        return epochStart + Int((segmenter.decidedUntil * Double(format.rate)).rounded())
    }

    /// Writes held packets and due events in position order, up to `limit` (frames).
    private func release(upTo limit: Int, output: StreamWriter) throws {
        while heldHead < held.count {
            let nextEvent = eventHead < events.count ? position(of: events[eventHead]) : Int.max
            switch held[heldHead] {
            case .audio(let block):
                let end = block.position + block.frames
                let cut = min(limit, nextEvent)
                if cut <= block.position {
                    guard nextEvent <= limit, nextEvent != .max else { return compact() }
                    try writeEvent(output: output)
                    continue
                }
                if end <= cut {
                    try pass(block, output: output)
                    heldHead += 1
                } else {
                    let split = (cut - block.position) * block.format.bytesPerFrame
                    try pass(AudioBlock(position: block.position, format: block.format, bytes: Array(block.bytes[..<split])), output: output)
                    held[heldHead] = .audio(AudioBlock(position: cut, format: block.format, bytes: Array(block.bytes[split...])))
                }
            case .format, .event:
                try output.write(held[heldHead])
                heldHead += 1
            }
        }
        while eventHead < events.count, position(of: events[eventHead]) <= limit {
            try writeEvent(output: output)
        }
        compact()
    }

    private func compact() {
        if heldHead > 0 {
            held.removeFirst(heldHead)
            heldHead = 0
        }
        if eventHead > 0 {
            events.removeFirst(eventHead)
            eventHead = 0
        }
    }

    private func pass(_ block: AudioBlock, output: StreamWriter) throws {
        guard !dropSilence || inSegment || options.fixed != nil else { return }
        try output.write(block)
    }

    private func position(of event: SegmenterEvent) -> Int {
        guard let format else { return 0 }
        return Int((event.time * Double(format.rate)).rounded())
    }

    private func writeEvent(output: StreamWriter) throws {
        let event = events[eventHead]
        eventHead += 1
        switch event {
        case .start(let index, let time):
            inSegment = true
            try output.write(event: SegmentStart(session: session, index: index, start: time))
        case .end(let segment):
            inSegment = false
            try output.write(
                event: SegmentEnd(
                    session: session, index: segment.index, start: segment.start, end: segment.end,
                    probability: segment.meanProbability, reason: segment.reason.rawValue))
            try labels?.write(segment)
        }
    }
}

/// Input the stage cannot segment.
public enum SegmentStageError: Error, Equatable, CustomStringConvertible, ToolFailure {
    case rateTooLow(Int)
    case analysis(String)

    public var description: String {
        switch self {
        case .analysis(let text): text
        case .rateTooLow(let rate):
            "sample rate \(rate) Hz is below 4000 Hz, the VAD's minimum (use --fixed, or aresample first)"
        }
    }

    public var exitStatus: ExitStatus { .dataError }
}
