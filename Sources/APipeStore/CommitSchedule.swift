#if canImport(Glibc)
import Glibc
#endif

/// When an ingest commits its open batch besides every `Ingestor.batchSize` changes: before a
/// read that could wait on the input, and at least every `interval` of wall time.
///
/// An open pipe that goes quiet (a capture paused, an upstream stage thinking) must not keep
/// what already arrived invisible to queries and exposed to `kill -9`.
struct CommitSchedule {
    /// The longest a batch stays open while input keeps arriving.
    static let interval: Duration = .seconds(1)

    /// The descriptor the stream is read from; nil for a stream in memory, which never waits.
    let input: Int32?
    private var last = ContinuousClock.now

    init(input: Int32?) {
        self.input = input
    }

    /// Whether to commit before reading the next packet, given the bytes the reader holds.
    func isDue(buffered: Int) -> Bool {
        if buffered == 0 || last.duration(to: .now) >= CommitSchedule.interval { return true }
        guard let input else { return false }
        // The buffered bytes may not hold a whole packet: if the input has nothing to read right
        // now, the next read could wait for as long as the writer pleases.
        var request = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, 0) != 1
    }

    /// Notes that the batch was committed.
    mutating func committed() {
        last = .now
    }
}
