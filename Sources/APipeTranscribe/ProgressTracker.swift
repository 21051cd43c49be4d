import APipeStream
import Foundation

/// Counts what the queue is doing, for the progress line.
public final class ProgressTracker: @unchecked Sendable {
    /// One reading of the counters; encoded as a `--progress json` line.
    public struct Snapshot: Codable, Equatable, Sendable {
        public var queued = 0
        public var inFlight = 0
        public var done = 0
        public var failed = 0
        public var retries = 0
        /// Seconds of audio transcribed (done or failed).
        public var audioSeconds = 0.0
        /// Seconds since the stage started.
        public var elapsed = 0.0

        /// Audio seconds transcribed per wall-clock second.
        public var speed: Double { elapsed > 0 ? audioSeconds / elapsed : 0 }
    }

    private let lock = NSLock()
    private var counts = Snapshot()
    private let started = ContinuousClock.now

    public init() {}

    func queued() { update { $0.queued += 1 } }
    func began() { update { $0.queued -= 1; $0.inFlight += 1 } }
    func retried() { update { $0.retries += 1 } }
    func ended(success: Bool, audioSeconds: Double) {
        update {
            $0.inFlight -= 1
            if success { $0.done += 1 } else { $0.failed += 1 }
            $0.audioSeconds += audioSeconds
        }
    }

    /// The counters now.
    public var snapshot: Snapshot {
        lock.lock()
        var copy = counts
        lock.unlock()
        copy.elapsed = (ContinuousClock.now - started).seconds
        return copy
    }

    private func update(_ change: (inout Snapshot) -> Void) {
        lock.lock()
        change(&counts)
        lock.unlock()
    }
}

/// How progress is shown on standard error.
public enum ProgressStyle: String, Sendable, CaseIterable {
    /// A line redrawn in place, when standard error is a terminal.
    case auto
    /// No progress output.
    case none
    /// A line redrawn in place, even when standard error is not a terminal.
    case line
    /// One JSON object a line.
    case json
}

/// Writes the tracker's counters to standard error now and then, and once at the end.
struct ProgressPrinter: Sendable {
    let tracker: ProgressTracker
    let style: ProgressStyle
    let interval: Duration

    /// Prints whenever the counters change (checked every `interval`) until `done` is
    /// fulfilled, then prints the final state.
    func run(until done: Promise<Void>) async {
        guard style == .line || style == .json else { return }
        var last: ProgressTracker.Snapshot?
        while !done.isFulfilled {
            try? await Task.sleep(for: interval)
            var now = tracker.snapshot
            now.elapsed = 0
            if now != last || style == .line { print(tracker.snapshot, final: false) }
            last = now
        }
        print(tracker.snapshot, final: true)
    }

    private func print(_ snapshot: ProgressTracker.Snapshot, final: Bool) {
        switch style {
        case .json:
            Diagnostics.line(Self.json(snapshot, final: final))
        case .line:
            let text = "\(Diagnostics.toolName): queued \(snapshot.queued), in flight \(snapshot.inFlight), done \(snapshot.done), "
                + "failed \(snapshot.failed), " + String(format: "%.1f", snapshot.speed) + " audio s/s"
            let bytes = Array(("\r" + text + "\u{1B}[K" + (final ? "\n" : "")).utf8)
            bytes.withUnsafeBytes { try? SystemIO.writeAll(2, $0) }
        case .auto, .none:
            break
        }
    }

    static func json(_ s: ProgressTracker.Snapshot, final: Bool) -> String {
        let counts = "{\"type\":\"progress\",\"queued\":\(s.queued),\"in_flight\":\(s.inFlight),\"done\":\(s.done),\"failed\":\(s.failed),\"retries\":\(s.retries),"
        let times = String(format: "\"audio_seconds\":%.3f,\"elapsed\":%.3f,\"speed\":%.3f,", s.audioSeconds, s.elapsed, s.speed)
        return counts + times + "\"final\":\(final)}"
    }
}
