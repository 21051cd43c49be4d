/// One streaming polyphase stage: input `up/down`, de-interleaved history, exact integer positions.
///
/// Output frame k sits at input position k * down / up exactly: `windowStart` and `phase`
/// (numerator over `up`) advance in integers, so the position never drifts. The filter is centred
/// on that position, so output and input are aligned (no delay to undo). Frames per channel.
struct ResamplerStage: Sendable {
    let bank: ResamplerFilterBank
    let channels: Int
    let up: Int
    let down: Int
    /// Whether dot products accumulate in double (presets beyond float's ~140 dB).
    let double: Bool
    /// Frames of history per channel.
    let capacity: Int
    /// Channel-major history: channel c occupies `c * capacity ..< (c + 1) * capacity`.
    private var history: [Float]
    /// Frames of history filled per channel.
    private var filled = 0
    /// History index of the first tap of the next output's window.
    private var windowStart = 0
    /// Fractional position of the next output, as a numerator over `up`.
    private var phase = 0

    /// Frames of input per call to `push` at most.
    static let block = 4096

    init(up: Int, down: Int, channels: Int, spec: ResamplerFilterSpec, double: Bool) {
        self.double = double
        self.bank = ResamplerFilterBank.shared(up: up, down: down, spec: spec)
        self.up = up
        self.down = down
        self.channels = channels
        self.capacity = bank.stride + Self.block + down / up + 1
        self.history = [Float](repeating: 0, count: capacity * channels)
        reset()
    }

    /// Input frames the next output still needs beyond the current position (half the filter).
    var lookahead: Int { bank.stride - bank.taps / 2 + 1 }

    /// Back to the start of a stream: history holds the zeros before the first input frame.
    mutating func reset() {
        filled = bank.taps / 2 - 1
        windowStart = 0
        phase = 0
        history.withUnsafeMutableBufferPointer { h in
            for c in 0..<channels {
                h.baseAddress!.advanced(by: c * capacity).update(repeating: 0, count: filled)
            }
        }
    }

    /// Room left for input frames before `push` must compact.
    var room: Int { capacity - filled }

    /// Appends up to `room` interleaved frames (or zeros when `input` is nil); returns frames taken.
    mutating func push(_ input: UnsafePointer<Float>?, frames: Int) -> Int {
        compactIfNeeded()
        let n = min(frames, capacity - filled)
        let channels = self.channels, capacity = self.capacity, filled = self.filled
        history.withUnsafeMutableBufferPointer { h in
            let base = h.baseAddress!
            for c in 0..<channels {
                let dst = base.advanced(by: c * capacity + filled)
                if let input {
                    var src = input.advanced(by: c)
                    for i in 0..<n {
                        dst[i] = src.pointee
                        src += channels
                    }
                } else {
                    dst.update(repeating: 0, count: n)
                }
            }
        }
        self.filled += n
        return n
    }

    /// Moves the live history to the front once the consumed part outgrows what one block needs.
    private mutating func compactIfNeeded() {
        guard windowStart > 0, capacity - filled < Self.block / 2 || windowStart >= Self.block else { return }
        let live = filled - windowStart
        let channels = self.channels, capacity = self.capacity, start = windowStart
        history.withUnsafeMutableBufferPointer { h in
            let base = h.baseAddress!
            for c in 0..<channels {
                let row = base.advanced(by: c * capacity)
                row.update(from: row.advanced(by: start), count: live)
            }
        }
        filled = live
        windowStart = 0
    }

    /// Output frames the current history can produce.
    var available: Int {
        let slack = filled - bank.stride - windowStart
        guard slack >= 0 else { return 0 }
        return ((slack + 1) * up - phase + down - 1) / down
    }

    /// Writes up to `limit` interleaved output frames to `out`; returns frames written.
    mutating func produce(into out: UnsafeMutablePointer<Float>, limit: Int) -> Int {
        let count = min(limit, available)
        guard count > 0 else { return 0 }
        if double {
            produce(DoubleDot.self, into: out, count: count)
        } else {
            produce(FloatDot.self, into: out, count: count)
        }
        return count
    }

    /// The output loop, specialised for each kernel.
    @inline(__always)
    private mutating func produce<K: Dot>(_: K.Type, into out: UnsafeMutablePointer<Float>, count: Int) {
        let stepWhole = down / up, stepFrac = down % up
        let stride = bank.stride, channels = self.channels, capacity = self.capacity
        let up = self.up, phases = bank.phases, interpolated = bank.interpolated
        var ws = windowStart, p = phase
        history.withUnsafeBufferPointer { h in
            bank.coefficients.withUnsafeBufferPointer { coef in
                let hb = h.baseAddress!, cb = coef.baseAddress!
                var o = out
                for _ in 0..<count {
                    if interpolated {
                        let pos = Double(p) * Double(phases) / Double(up)
                        let row = min(Int(pos), phases - 1)
                        let weight = Float(pos - Double(row))
                        let c0 = cb.advanced(by: row * stride), c1 = c0.advanced(by: stride)
                        for c in 0..<channels {
                            let x = hb.advanced(by: c * capacity + ws)
                            let d0 = K.dot(c0, x, count: stride)
                            let d1 = K.dot(c1, x, count: stride)
                            o[c] = d0 + weight * (d1 - d0)
                        }
                    } else {
                        // Positions stay below the history and table sizes: wrapping arithmetic
                        // drops overflow checks from the per-output path.
                        let c0 = cb.advanced(by: p &* stride)
                        var x = hb.advanced(by: ws)
                        var c = 0
                        while c &+ 2 <= channels {
                            (o[c], o[c &+ 1]) = K.dot2(c0, x, x + capacity, count: stride)
                            x += 2 &* capacity
                            c &+= 2
                        }
                        if c < channels { o[c] = K.dot(c0, x, count: stride) }
                    }
                    o += channels
                    ws &+= stepWhole
                    p &+= stepFrac
                    if p >= up {
                        p &-= up
                        ws &+= 1
                    }
                }
            }
        }
        windowStart = ws
        phase = p
    }
}

/// A dot-product kernel `produce` is specialised for.
private protocol Dot {
    static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float
    static func dot2(_ a: UnsafePointer<Float>, _ b0: UnsafePointer<Float>, _ b1: UnsafePointer<Float>,
                     count: Int) -> (Float, Float)
}

private enum FloatDot: Dot {
    @inline(__always)
    static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
        ResamplerKernel.dot(a, b, count: count)
    }

    @inline(__always)
    static func dot2(_ a: UnsafePointer<Float>, _ b0: UnsafePointer<Float>, _ b1: UnsafePointer<Float>,
                     count: Int) -> (Float, Float) {
        ResamplerKernel.dot2(a, b0, b1, count: count)
    }
}

private enum DoubleDot: Dot {
    @inline(__always)
    static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, count: Int) -> Float {
        ResamplerKernel.dotDouble(a, b, count: count)
    }

    @inline(__always)
    static func dot2(_ a: UnsafePointer<Float>, _ b0: UnsafePointer<Float>, _ b1: UnsafePointer<Float>,
                     count: Int) -> (Float, Float) {
        ResamplerKernel.dot2Double(a, b0, b1, count: count)
    }
}
