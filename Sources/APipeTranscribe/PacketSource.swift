import APipeStream
import Dispatch
import Foundation

/// Reads packets off the cooperative thread pool: `read(2)` on standard input may block for
/// as long as the upstream stage likes, and must not hold up the tasks talking to engines.
final class PacketSource: @unchecked Sendable {
    private let reader: StreamReader
    private let queue = DispatchQueue(label: "atranscribe.input")

    init(_ reader: StreamReader) {
        self.reader = reader
    }

    /// The next packet, nil at a clean end; returns nil at once when the task is cancelled
    /// (the read left running is abandoned).
    func next() async throws -> Packet? {
        let once = ResumeOnce<Result<Packet?, any Error>>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                once.set(continuation)
                queue.async {
                    once.resume(Result { try self.reader.next() })
                }
            }.get()
        } onCancel: {
            once.resume(.success(nil))
        }
    }
}

/// A continuation resumed by whichever of several parties comes first.
final class ResumeOnce<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, any Error>?
    private var early: Value?
    private var done = false

    func set(_ continuation: CheckedContinuation<Value, any Error>) {
        lock.lock()
        if let early {
            lock.unlock()
            continuation.resume(returning: early)
            return
        }
        self.continuation = continuation
        lock.unlock()
    }

    func resume(_ value: Value) {
        lock.lock()
        guard !done else { lock.unlock(); return }
        done = true
        guard let continuation else {
            early = value
            lock.unlock()
            return
        }
        self.continuation = nil
        lock.unlock()
        continuation.resume(returning: value)
    }
}
