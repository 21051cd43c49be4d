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
        samples.reserveCapacity(start + count)
        switch encoding {
        case .s16le:
            let scale = Float(1) / 32768
            for i in 0..<count {
                let v = Int16(littleEndian: raw.loadUnaligned(fromByteOffset: i * 2, as: Int16.self))
                samples.append(Float(v) * scale)
            }
        case .f32le:
            for i in 0..<count {
                let bits = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self))
                samples.append(Float(bitPattern: bits))
            }
        }
    }

    public static func encode(_ samples: UnsafeBufferPointer<Float>, encoding: SampleEncoding, appendingTo bytes: inout [UInt8]) {
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: samples.count * encoding.bytesPerSample))
        bytes.withUnsafeMutableBytes { raw in
            let out = UnsafeMutableRawBufferPointer(rebasing: raw[start...])
            switch encoding {
            case .s16le:
                for (i, x) in samples.enumerated() {
                    out.storeBytes(of: clippedInt16(x).littleEndian, toByteOffset: i * 2, as: Int16.self)
                }
            case .f32le:
                for (i, x) in samples.enumerated() {
                    out.storeBytes(of: x.bitPattern.littleEndian, toByteOffset: i * 4, as: UInt32.self)
                }
            }
        }
    }

    /// Rounds to the nearest s16 value, clipping out-of-range input and mapping NaN to 0.
    @inlinable
    public static func clippedInt16(_ x: Float) -> Int16 {
        let scaled = (x * 32768).rounded()
        if scaled >= 32767 { return .max }
        if scaled <= -32768 { return .min }
        return scaled.isNaN ? 0 : Int16(scaled)
    }
}
