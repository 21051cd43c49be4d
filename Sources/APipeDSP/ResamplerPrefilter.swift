/// Sharp low-pass by FFT overlap-save: the first stage of a conversion whose direct filter is long.
///
/// Up-conversions stuff one zero after each input frame (`stuffing == 2`), so the filter runs at
/// twice the input rate and also removes the first image.
/// It does the steep part of the filtering (pass edge to the new Nyquist) at O(log n) cost per
/// sample, so the polyphase stage after it only needs a wide transition band and a few taps.
/// Output is aligned with input (centred odd-length filter). Two consecutive blocks of a channel
/// go through one complex FFT as real and imaginary parts. The FFT runs in `T`: Float reaches about
/// 140 dB, Double is for presets beyond that. Frames per channel.
struct ResamplerPrefilter<T: BinaryFloatingPoint & SIMDScalar & Sendable>: ResamplerChunkFilter {
    let channels: Int
    /// Samples per input frame at the filter's rate: 1, or 2 with a zero stuffed after each.
    let stuffing: Int
    /// Filter taps (odd).
    let taps: Int
    /// New output frames per channel per FFT: two blocks of `size - taps + 1`.
    let chunk: Int
    private let fft: ResamplerFFT<T>
    /// Filter spectrum, bit-reversed order, scaled by 1/size.
    private let spectrumRe: [T]
    private let spectrumIm: [T]
    /// Per channel: `taps - 1` frames of history then up to `chunk` new frames.
    private var segment: [Float]
    private let segmentLength: Int
    private var filled = 0
    private var workRe: [T]
    private var workIm: [T]

    /// Designs the low-pass: `cutoff` and `transition` in cycles per sample at the filter's rate.
    init(channels: Int, stuffing: Int, cutoff: Double, transition: Double, attenuation: Double) {
        // taps = 4j + 1: the initial half-length history is even, so stuffed pairs never straddle a chunk.
        let n = (KaiserSinc.length(attenuation: attenuation, transition: transition) + 2) / 4 * 4 + 1
        self.stuffing = stuffing
        taps = n
        var size = 1024
        while size < 4 * n { size *= 2 }
        fft = ResamplerFFT<T>(size: size)
        chunk = 2 * (size - n + 1)
        self.channels = channels
        let half = n / 2
        let beta = KaiserSinc.beta(attenuation: attenuation), i0Beta = KaiserSinc.besselI0(beta)
        var re = [Double](repeating: 0, count: size), im = [Double](repeating: 0, count: size)
        for k in 0..<n {
            re[k] = KaiserSinc.tap(
                at: Double(k - half), cutoff: cutoff, halfSpan: Double(half + 1), beta: beta, i0Beta: i0Beta)
        }
        let dc = re.reduce(0, +)
        for k in 0..<n { re[k] *= Double(stuffing) / (dc * Double(size)) }
        // Designed and transformed in double whatever T is: only the signal path runs in T.
        let design = ResamplerFFT<Double>(size: size)
        re.withUnsafeMutableBufferPointer { r in
            im.withUnsafeMutableBufferPointer { i in design.forward(r.baseAddress!, i.baseAddress!) }
        }
        spectrumRe = re.map { T($0) }
        spectrumIm = im.map { T($0) }
        segmentLength = n - 1 + chunk
        segment = [Float](repeating: 0, count: segmentLength * channels)
        workRe = [T](repeating: 0, count: size)
        workIm = [T](repeating: 0, count: size)
        reset()
    }

    /// Frames at the filter's rate consumed before an output frame is complete, at most.
    var latency: Int { chunk + taps / 2 }

    // `reset`, `push` and `run` are reached through `any ResamplerChunkFilter`, whose witnesses are
    // generic: `@_specialize` gives them specialised bodies for both precisions.

    /// Back to the start of a stream: the history holds the zeros before the first frame.
    @_specialize(where T == Float)
    @_specialize(where T == Double)
    mutating func reset() {
        filled = taps / 2
        let length = segmentLength, channels = self.channels
        segment.withUnsafeMutableBufferPointer { s in
            for c in 0..<channels { s.baseAddress!.advanced(by: c * length).update(repeating: 0, count: length) }
        }
    }

    /// Whether a chunk is complete and `run` must be called before the next `push`.
    var isFull: Bool { filled == segmentLength }

    /// Appends interleaved input frames (zeros when `input` is nil) up to a complete chunk; returns frames taken.
    @_specialize(where T == Float)
    @_specialize(where T == Double)
    mutating func push(_ input: UnsafePointer<Float>?, frames: Int) -> Int {
        let n = min(frames, (segmentLength - filled) / stuffing)
        let channels = self.channels, length = segmentLength, filled = self.filled, stuffing = self.stuffing
        segment.withUnsafeMutableBufferPointer { s in
            for c in 0..<channels {
                let dst = s.baseAddress!.advanced(by: c * length + filled)
                if let input, stuffing == 1 {
                    var src = input.advanced(by: c)
                    for i in 0..<n {
                        dst[i] = src.pointee
                        src += channels
                    }
                } else if let input {
                    var src = input.advanced(by: c)
                    for i in 0..<n {
                        dst[2 * i] = src.pointee
                        dst[2 * i + 1] = 0
                        src += channels
                    }
                } else {
                    dst.update(repeating: 0, count: n * stuffing)
                }
            }
        }
        self.filled += n * stuffing
        return n
    }

    /// Filters the complete chunk into `out` (`chunk` interleaved frames) and keeps the history.
    @_specialize(where T == Float)
    @_specialize(where T == Double)
    mutating func run(into out: UnsafeMutablePointer<Float>) {
        let size = fft.size, block = chunk / 2, keep = taps - 1, channels = self.channels
        let length = segmentLength
        segment.withUnsafeMutableBufferPointer { s in
            workRe.withUnsafeMutableBufferPointer { wr in
                workIm.withUnsafeMutableBufferPointer { wi in
                    spectrumRe.withUnsafeBufferPointer { hr in
                        spectrumIm.withUnsafeBufferPointer { hi in
                            let re = wr.baseAddress!, im = wi.baseAddress!
                            for c in 0..<channels {
                                let seg = s.baseAddress!.advanced(by: c * length)
                                for i in 0..<size {
                                    re[i] = T(seg[i])
                                    im[i] = T(seg[block + i])
                                }
                                fft.forward(re, im)
                                Self.multiply(re, im, hr.baseAddress!, hi.baseAddress!, count: size)
                                fft.inverse(re, im)
                                var o = out.advanced(by: c)
                                for i in keep..<size {
                                    o.pointee = Float(re[i])
                                    o += channels
                                }
                                for i in keep..<size {
                                    o.pointee = Float(im[i])
                                    o += channels
                                }
                                seg.update(from: seg.advanced(by: chunk), count: keep)
                            }
                        }
                    }
                }
            }
        }
        filled = keep
    }

    /// Pointwise complex product of (re, im) with (hr, hi), SIMD16.
    @inline(__always)
    private static func multiply(_ re: UnsafeMutablePointer<T>, _ im: UnsafeMutablePointer<T>,
                                 _ hr: UnsafePointer<T>, _ hi: UnsafePointer<T>, count: Int) {
        typealias V = SIMD16<T>
        var i = 0
        while i < count {
            let a = UnsafeRawPointer(re + i).loadUnaligned(as: V.self)
            let b = UnsafeRawPointer(im + i).loadUnaligned(as: V.self)
            let c = UnsafeRawPointer(hr + i).loadUnaligned(as: V.self)
            let d = UnsafeRawPointer(hi + i).loadUnaligned(as: V.self)
            UnsafeMutableRawPointer(re + i).storeBytes(of: a * c - b * d, as: V.self)
            UnsafeMutableRawPointer(im + i).storeBytes(of: a * d + b * c, as: V.self)
            i += V.scalarCount
        }
    }
}
