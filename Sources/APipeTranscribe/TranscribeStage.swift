import APipeStream

/// The atranscribe stage: passes the stream through and puts each segment's transcription
/// (or failure) right after the event that ended the segment.
///
/// Three kinds of task share the work: the reader collects segments and queues them, `jobs`
/// workers transcribe them concurrently, and the writer writes everything in stream order,
/// waiting for each transcription when it reaches it. The channel between reader and writer is
/// the reorder buffer; its bound (pending segments and buffered bytes) makes the reader wait,
/// so memory never grows with the length of the input.
public struct TranscribeStage: Sendable {
    public var name = "atranscribe"
    public let transcriber: SegmentTranscriber
    /// Segments transcribed at once.
    public let jobs: Int
    /// Segments queued or in flight before the reader waits.
    public let maxPendingSegments: Int
    /// Bytes of passed-through packets held behind a pending segment before the reader waits.
    public let maxBufferedBytes: Int
    public let windowSeconds: Double
    public let tracker: ProgressTracker
    public let progress: ProgressStyle
    public var progressInterval: Duration = .milliseconds(250)

    public init(
        transcriber: SegmentTranscriber, jobs: Int, maxPendingSegments: Int? = nil, maxBufferedBytes: Int = 64 << 20,
        windowSeconds: Double = 30, tracker: ProgressTracker = ProgressTracker(), progress: ProgressStyle = .none
    ) {
        self.transcriber = transcriber
        self.jobs = max(1, jobs)
        self.maxPendingSegments = max(self.jobs, maxPendingSegments ?? 2 * self.jobs + 2)
        self.maxBufferedBytes = maxBufferedBytes
        self.windowSeconds = windowSeconds
        self.tracker = tracker
        self.progress = progress
    }

    private enum Slot: Sendable {
        case packet(Packet)
        case transcription(Promise<Event>)
        case warning(String)
        /// The input broke off (interrupted or corrupt after a valid start), or could not be read at all.
        case inputFailed(StreamError, interrupted: Bool)
    }

    private struct Work: Sendable {
        let job: SegmentJob
        let promise: Promise<Event>
    }

    /// Runs from `reader` to `sink`. On a clean end the sink is finished; when the input
    /// breaks off, everything before the break is written with a `stream.interrupted` event
    /// and the error is rethrown.
    public func run(reader: StreamReader, sink: any TranscriptSink, warn: @escaping @Sendable (String) -> Void) async throws {
        let source = PacketSource(reader)
        let slots = BoundedChannel<Slot>(maxSlots: maxPendingSegments, maxBytes: maxBufferedBytes)
        let work = BoundedChannel<Work>()
        let finished = Promise<Void>()
        let stopped = Promise<Void>()
        let sinkBox = SinkBox(sink)
        let printer = ProgressPrinter(tracker: tracker, style: progress, interval: progressInterval)
        try await withThrowingDiscardingTaskGroup { group in
            for _ in 0..<jobs {
                group.addTask { await worker(work, stopped: stopped) }
            }
            group.addTask { await printer.run(until: finished) }
            group.addTask { await produce(source, slots: slots, work: work, stopped: stopped) }
            defer { finished.fulfill(()) }
            do {
                try await consume(slots, sink: sinkBox, warn: warn)
            } catch {
                await slots.cancel()
                await work.cancel()
                group.cancelAll()
                throw error
            }
            await work.close()
        }
    }

    /// Transcribes queued jobs; once the stage is stopped, the rest are passed on as pending,
    /// so the library keeps them for a later `aindex pending | atranscribe | aindex`.
    private func worker(_ work: BoundedChannel<Work>, stopped: Promise<Void>) async {
        while let item = await work.receive() {
            if stopped.isFulfilled {
                item.promise.fulfill(transcriber.notTranscribed(item.job, reason: "\(name) was stopped before its input ended"))
                continue
            }
            tracker.began()
            let event = await transcriber.transcribe(item.job)
            tracker.ended(success: event.type == Transcription.type, audioSeconds: item.job.audio.duration)
            item.promise.fulfill(event)
        }
    }

    private func produce(_ source: PacketSource, slots: BoundedChannel<Slot>, work: BoundedChannel<Work>, stopped: Promise<Void>) async {
        var collector = SegmentCollector(windowSeconds: windowSeconds)
        func emit(_ items: [SegmentCollector.Item]) async -> Bool {
            for item in items {
                let sent: Bool
                switch item {
                case .packet(let packet):
                    sent = await slots.send(.packet(packet), cost: .init(bytes: packet.byteCount))
                case .warning(let text):
                    sent = await slots.send(.warning(text))
                case .job(let job):
                    let promise = Promise<Event>()
                    sent = await slots.send(.transcription(promise), cost: .init(slots: 1))
                    if sent {
                        tracker.queued()
                        await work.send(Work(job: job, promise: promise))
                    }
                }
                if !sent { return false }
            }
            return true
        }
        do {
            while let packet = try await source.next() {
                guard await emit(collector.consume(packet)) else { return }
            }
            if Task.isCancelled { return }
            _ = await emit(collector.finish())
        } catch let error as StreamError {
            switch error {
            case .interrupted, .corrupt:
                guard await emit(collector.finish()) else { return }
                await slots.send(.inputFailed(error, interrupted: true))
            case .stopped:
                stopped.fulfill(())
                guard await emit(collector.finish()) else { return }
                await slots.send(.inputFailed(error, interrupted: true))
            default:
                await slots.send(.inputFailed(error, interrupted: false))
            }
        } catch {
            await slots.send(.inputFailed(.io(operation: "read", errno: 5), interrupted: false))
        }
        await slots.close()
    }

    private func consume(_ slots: BoundedChannel<Slot>, sink: SinkBox, warn: @Sendable (String) -> Void) async throws {
        while true {
            if await slots.count == 0 { try sink.sink.flush() }
            guard let slot = await slots.receive() else { break }
            switch slot {
            case .packet(let packet):
                try sink.sink.write(packet)
            case .warning(let text):
                warn(text)
            case .transcription(let promise):
                try sink.sink.flush()
                let event = await promise.result
                if let failed = try? event.decode(TranscriptionFailed.self) {
                    warn("segment \(failed.index)\(failed.pending ? " deferred" : " failed"): \(failed.error)")
                }
                try sink.sink.write(.event(event))
            case .inputFailed(let error, let interrupted):
                guard interrupted else { throw error }
                let event = StreamInterrupted(stage: name, offset: error.breakOffset ?? 0, reason: error.description)
                try sink.sink.write(.event(Event(event)))
                try sink.sink.flush()
                throw error
            }
        }
        try sink.sink.finish()
    }
}

/// Lets the writer task own the sink (the sink is used by that one task only).
private final class SinkBox: @unchecked Sendable {
    let sink: any TranscriptSink
    init(_ sink: any TranscriptSink) { self.sink = sink }
}

extension Packet {
    /// Bytes the packet holds, for the reorder buffer's bound.
    var byteCount: Int {
        switch self {
        case .format: 16
        case .audio(let block): block.bytes.count + 16
        case .event(let event): event.json.count + 16
        }
    }
}
