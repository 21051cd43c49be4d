import Foundation

/// A value that one task sets once and another awaits.
final class Promise<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value?
    private var waiters: [CheckedContinuation<Value, Never>] = []

    func fulfill(_ newValue: Value) {
        lock.lock()
        guard value == nil else { lock.unlock(); return }
        value = newValue
        let waiting = waiters
        waiters = []
        lock.unlock()
        for waiter in waiting { waiter.resume(returning: newValue) }
    }

    /// Whether a value was set.
    var isFulfilled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value != nil
    }

    var result: Value {
        get async {
            await withCheckedContinuation { continuation in
                lock.lock()
                if let value {
                    lock.unlock()
                    continuation.resume(returning: value)
                } else {
                    waiters.append(continuation)
                    lock.unlock()
                }
            }
        }
    }
}
