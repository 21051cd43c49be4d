/// A run of interleaved audio frames and the position of its first frame.
public struct AudioBlock: Sendable, Equatable {
    /// Frame index of the first frame, counted from the session's start at the current rate.
    public var position: Int
    public var format: AudioFormat
    /// Interleaved little-endian samples in `format.encoding`.
    public var bytes: [UInt8]

    public init(position: Int, format: AudioFormat, bytes: [UInt8]) {
        precondition(bytes.count % format.bytesPerFrame == 0, "audio bytes must hold whole frames")
        self.position = position
        self.format = format
        self.bytes = bytes
    }

    /// Frames per channel in the block.
    public var frames: Int { bytes.count / format.bytesPerFrame }

    /// Seconds from the session's start to the first frame.
    public var time: Double { format.seconds(position) }

    /// Appends the block's samples, interleaved, as floats in [-1, 1) to `samples`.
    public func appendSamples(to samples: inout [Float]) {
        bytes.withUnsafeBytes { raw in
            SampleCodec.decode(raw, encoding: format.encoding, appendingTo: &samples)
        }
    }
}

/// Wire encoding and decoding of samples. s16 is scaled by 1/32768; float to s16 rounds and
/// clips, so a float that came from s16 goes back to the same integer.
public enum SampleCodec {
    public static func decode(_ raw: UnsafeRawBufferPointer, encoding: SampleEncoding, appendingTo samples: inout [Float]) {
        let count = raw.count / encoding.bytesPerSample
        let start = samples.count
        samples.append(contentsOf: repeatElement(0, count: count))
        guard let source = raw.baseAddress, count > 0 else { return }
        samples.withUnsafeMutableBufferPointer { all in
            let out = all.baseAddress! + start
            switch encoding {
            case .s16le:
                let scale = Float(1) / 32768
                for i in 0..<count {
                    out[i] = Float(Int16(littleEndian: source.loadUnaligned(fromByteOffset: i &* 2, as: Int16.self))) * scale
                }
            case .f32le:
                for i in 0..<count {
                    out[i] = Float(bitPattern: UInt32(littleEndian: source.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self)))
                }
            }
        }
    }

    public static func encode(_ samples: UnsafeBufferPointer<Float>, encoding: SampleEncoding, appendingTo bytes: inout [UInt8]) {
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: samples.count * encoding.bytesPerSample))
        guard let source = samples.baseAddress, !samples.isEmpty else { return }
        bytes.withUnsafeMutableBytes { raw in
            let out = raw.baseAddress! + start
            switch encoding {
            case .s16le:
                var i = 0
                while i + 8 <= samples.count {
                    let v = UnsafeRawPointer(source + i).loadUnaligned(as: SIMD8<Float>.self)
                    (out + i &* 2).storeBytes(of: quantize(v), as: SIMD8<Int16>.self)
                    i += 8
                }
                while i < samples.count {
                    out.storeBytes(of: clippedInt16(source[i]).littleEndian, toByteOffset: i &* 2, as: Int16.self)
                    i += 1
                }
            case .f32le:
                for i in 0..<samples.count {
                    out.storeBytes(of: source[i].bitPattern.littleEndian, toByteOffset: i &* 4, as: UInt32.self)
                }
            }
        }
    }

    /// Eight samples to s16 at once (host order is the wire's little-endian on every platform
    /// apipe builds for): NaN to 0, round to nearest even, clip.
    @usableFromInline @inline(__always)
    static func quantize(_ samples: SIMD8<Float>) -> SIMD8<Int16> {
        let scaled = samples * 32768
        let clean = scaled.replacing(with: 0, where: scaled .!= scaled)
        let clipped = clean.rounded(.toNearestOrEven).clamped(lowerBound: SIMD8(repeating: -32768), upperBound: SIMD8(repeating: 32767))
        return SIMD8<Int16>(truncatingIfNeeded: SIMD8<Int32>(clipped))
    }

    /// Rounds to the nearest s16 value (ties to even), clipping out-of-range input and mapping
    /// NaN to 0: the same rule as the vector path.
    @inlinable
    public static func clippedInt16(_ x: Float) -> Int16 {
        quantize(SIMD8(repeating: x))[0]
    }
}
