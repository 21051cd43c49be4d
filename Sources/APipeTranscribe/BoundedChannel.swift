/// A first-in first-out channel between tasks whose senders wait while it is full.
///
/// Capacity is counted two ways: `slots` (items that cost a slot, e.g. pending
/// transcriptions) and `bytes`. An item is always let in when the channel holds nothing of
/// the kind it costs, so one oversized item cannot block forever. `close()` lets receivers
/// drain what is left and then get nil; `cancel()` also drops what is left and wakes senders.
actor BoundedChannel<Element: Sendable> {
    struct Cost: Sendable {
        var slots = 0
        var bytes = 0
    }

    private let maxSlots: Int
    private let maxBytes: Int
    private var items: [(Element, Cost)] = []
    private var head = 0
    private var used = Cost()
    private var closed = false
    private var cancelled = false
    private var receivers: [CheckedContinuation<Element?, Never>] = []
    private var senders: [(cost: Cost, continuation: CheckedContinuation<Bool, Never>)] = []

    init(maxSlots: Int = .max, maxBytes: Int = .max) {
        self.maxSlots = max(1, maxSlots)
        self.maxBytes = max(1, maxBytes)
    }

    /// Items waiting to be received.
    var count: Int { items.count - head }

    /// Adds `element`, waiting for room; false when the channel was cancelled.
    @discardableResult
    func send(_ element: Element, cost: Cost = Cost()) async -> Bool {
        if cancelled { return false }
        if !fits(cost) || !senders.isEmpty {
            let admitted = await withCheckedContinuation { senders.append((cost, $0)) }
            if !admitted { return false }
        }
        deliver(element, cost)
        return true
    }

    /// The next element, or nil once the channel is closed and empty.
    func receive() async -> Element? {
        if head < items.count { return take() }
        if closed || cancelled { return nil }
        return await withCheckedContinuation { receivers.append($0) }
    }

    /// No more elements will be sent; receivers drain what is left.
    func close() {
        closed = true
        if head >= items.count { wakeReceivers() }
    }

    /// Stops the channel: senders and receivers return at once.
    func cancel() {
        cancelled = true
        items.removeAll()
        head = 0
        used = Cost()
        wakeReceivers()
        for sender in senders { sender.continuation.resume(returning: false) }
        senders.removeAll()
    }

    private func fits(_ cost: Cost) -> Bool {
        let slotsFit = cost.slots == 0 || used.slots == 0 || used.slots + cost.slots <= maxSlots
        let bytesFit = cost.bytes == 0 || used.bytes == 0 || used.bytes + cost.bytes <= maxBytes
        return slotsFit && bytesFit
    }

    private func deliver(_ element: Element, _ cost: Cost) {
        if !receivers.isEmpty {
            receivers.removeFirst().resume(returning: element)
            return
        }
        items.append((element, cost))
        used.slots += cost.slots
        used.bytes += cost.bytes
    }

    private func take() -> Element {
        let (element, cost) = items[head]
        head += 1
        if head > 64 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        used.slots -= cost.slots
        used.bytes -= cost.bytes
        admitSenders()
        return element
    }

    /// Lets the first waiting sender in when it fits: one per item taken, so waiting senders
    /// overshoot the capacity by at most the item each is about to deliver.
    private func admitSenders() {
        if let first = senders.first, fits(first.cost) {
            senders.removeFirst()
            first.continuation.resume(returning: true)
        }
    }

    private func wakeReceivers() {
        for receiver in receivers { receiver.resume(returning: nil) }
        receivers.removeAll()
    }
}
