import APipeDSP
import APipeStream

/// The `aresample` stage: rate, channel and sample-encoding conversion.
///
/// Positions stay exact: a contiguous run of input starting at position p comes out starting
/// at round(p x ratio). A gap in the input positions (dropped silence) or a new format ends the
/// run: the converter is drained and a new one starts at the new position. Events are held
/// back until the audio that came before them has left the converter, so that every event
/// keeps its place in the stream relative to the audio.
public struct ResampleStage: StreamStage {
    private let options: ResampleOptions
    private var input: AudioFormat?
    private var output: AudioFormat?
    private var mixer: ChannelMixer?
    private var converter: RunResampler?
    /// Input position where the current run started, and the next one expected.
    private var runStart = 0
    private var nextInput = 0
    /// Events waiting for the output to catch up: (input frames into the run, event).
    private var heldEvents: [(inputFrames: Int, event: Event)] = []
    private var samples: [Float] = []
    private var mixed: [Float] = []
    private var converted: [Float] = []
    private var encoded: [UInt8] = []
    private var dither = TPDFDither()

    public init(options: ResampleOptions) {
        self.options = options
    }

    public mutating func consume(_ packet: Packet, output writer: StreamWriter) throws {
        switch packet {
        case .format(let format):
            try drain(writer)
            try start(format, writer)
        case .audio(let block):
            try checkPosition(block, writer)
            if block.position != nextInput || converter == nil {
                try drain(writer)
                runStart = block.position
                nextInput = block.position
                try startConverter()
            }
            try convert(block, writer)
        case .event(let event):
            if let converter, !heldEvents.isEmpty || converter.outputFrames < converter.expectedOutput(converter.inputFrames) {
                heldEvents.append((converter.inputFrames, event))
            } else {
                try writer.write(event)
            }
        }
    }

    public mutating func finish(output writer: StreamWriter, interrupted: Bool) throws {
        try drain(writer)
    }

    /// The largest audio position a `StreamReader` accepts (Int64.max / 2).
    static let maxPosition = Int(Int64.max / 2)

    /// Refuses a block whose converted position would pass `maxPosition` (it would overflow, or
    /// no reader would take it), after passing on everything before it.
    private mutating func checkPosition(_ block: AudioBlock, _ writer: StreamWriter) throws {
        guard let output, output.rate > block.format.rate else { return }
        let end = Double(block.position + block.frames) * Double(output.rate) / Double(block.format.rate)
        guard end > Double(Self.maxPosition) else { return }
        try drain(writer)
        try writer.flush()
        throw ResampleError.positionOutOfRange(position: block.position, inputRate: block.format.rate, outputRate: output.rate)
    }

    private mutating func start(_ format: AudioFormat, _ writer: StreamWriter) throws {
        let out = try options.outputFormat(for: format)
        input = format
        output = out
        mixer = ChannelMixer(inputChannels: format.channels, outputChannels: out.channels)
        try writer.write(format: out)
    }

    private mutating func startConverter() throws {
        guard let input, let output else { return }
        converter = input.rate == output.rate
            ? nil
            : try RunResampler(
                inputRate: input.rate, outputRate: output.rate, channels: output.channels, quality: options.quality, engine: options.engine)
    }

    private mutating func convert(_ block: AudioBlock, _ writer: StreamWriter) throws {
        guard let output, let mixer else { return }
        if converter == nil && mixer.isIdentity && output.encoding == block.format.encoding && !dithering {
            try writer.write(AudioBlock(position: block.position, format: output, bytes: block.bytes))
            nextInput += block.frames
            return
        }
        samples.removeAll(keepingCapacity: true)
        block.appendSamples(to: &samples)
        if !mixer.isIdentity {
            samples.withUnsafeBufferPointer { mixer.mix($0, into: &mixed) }
            swap(&samples, &mixed)
        }
        nextInput += block.frames
        if let converter {
            let position = runOutputStart + converter.outputFrames
            try samples.withUnsafeBufferPointer { try converter.process($0, into: &converted) }
            try emitConverted(at: position, writer)
        } else {
            if dithering { samples.withUnsafeMutableBufferPointer { dither.add(to: $0) } }
            try emit(samples, at: block.position, writer)
        }
    }

    /// Where the current run starts in output frames.
    private var runOutputStart: Int { converter?.expectedOutput(runStart) ?? runStart }

    /// Dither applies where floats become s16.
    private var dithering: Bool { options.dither && output?.encoding == .s16le }

    /// Emits the converter's output buffer.
    private mutating func emitConverted(at position: Int, _ writer: StreamWriter) throws {
        if dithering { converted.withUnsafeMutableBufferPointer { dither.add(to: $0) } }
        try emit(converted, at: position, writer)
    }

    /// Writes frames at `position`, then any held events the output has caught up with.
    private mutating func emit(_ frames: [Float], at position: Int, _ writer: StreamWriter) throws {
        if !frames.isEmpty {
            try frames.withUnsafeBufferPointer { try writer.writeAudio(position: position, samples: $0, scratch: &encoded) }
        }
        guard let converter else { return }
        var released = 0
        while released < heldEvents.count, converter.outputFrames >= converter.expectedOutput(heldEvents[released].inputFrames) {
            try writer.write(heldEvents[released].event)
            released += 1
        }
        heldEvents.removeFirst(released)
    }

    /// Ends the current run: flushes the converter's tail and every held event.
    private mutating func drain(_ writer: StreamWriter) throws {
        if let converter {
            let position = runOutputStart + converter.outputFrames
            try converter.finish(into: &converted)
            try emitConverted(at: position, writer)
            self.converter = nil
        }
        for held in heldEvents { try writer.write(held.event) }
        heldEvents.removeAll()
    }
}
