import APipeAudio
import APipeStream
import Foundation
import Testing

/// acapture | aresample | acat through real pipes, checked against libsndfile and libsamplerate
/// called directly.
@Suite struct CaptureResampleCatTests {
    @Test func resampledWavMatchesLibsamplerateDirectly() throws {
        let shell = try Shell()
        let speech = try shell.speech("The budget meeting starts at nine.")
        let result = try shell.run("acapture -i '\(speech)' | aresample -r 16000 --engine libsamplerate | acat --wav > out.wav")
        #expect(result.statuses == [0, 0, 0], "\(result.stderr)")

        let source = try SoundFileReader(path: speech)
        let input = try samples(of: source)
        let expectedFrames = Int((Double(input.count) * 16000 / Double(source.rate)).rounded())
        let converter = try SampleRateConverter(inputRate: source.rate, outputRate: 16000, channels: 1, quality: .high)
        var reference: [Float] = []
        try input.withUnsafeBufferPointer { try converter.process($0, endOfInput: false, into: &reference) }
        let silence = [Float](repeating: 0, count: max(4096, source.rate / 10))
        try silence.withUnsafeBufferPointer { try converter.process($0, endOfInput: true, into: &reference) }
        reference.removeLast(reference.count - expectedFrames)

        let output = try SoundFileReader(path: shell.path("out.wav"))
        #expect(output.rate == 16000)
        let produced = try samples(of: output)
        #expect(produced.count == expectedFrames)
        let worst = zip(produced, reference).map { abs($0 - $1) }.max() ?? 1
        #expect(worst <= 1.0 / 32768 + 1e-6, "largest difference \(worst)")
    }

    @Test func bothEnginesAgreeOnABandLimitedSignal() throws {
        let shell = try Shell()
        try shell.run("sox -n -r 44100 -c 1 -b 16 tone.wav synth 2 sine 1000 sine 3000 vol 0.4")
        let result = try shell.run("""
            acapture -i tone.wav | aresample -r 16000 --format f32 --quality best | acat --wav > apipe.wav
            acapture -i tone.wav | aresample -r 16000 --format f32 --quality best --engine libsamplerate | acat --wav > lsr.wav
            """)
        #expect(result.statuses == [0, 0, 0], "\(result.stderr)")
        let apipe = try samples(of: SoundFileReader(path: shell.path("apipe.wav")))
        let reference = try samples(of: SoundFileReader(path: shell.path("lsr.wav")))
        #expect(apipe.count == 32000)
        #expect(reference.count == 32000)
        // Away from the edges, the two filters agree to better than -90 dB of full scale.
        let worst = zip(apipe, reference).dropFirst(800).dropLast(800).map { abs($0 - $1) }.max() ?? 1
        #expect(worst < 3e-5, "largest difference \(worst)")
    }

    func samples(of reader: SoundFileReader) throws -> [Float] {
        var all: [Float] = []
        var block: [Float] = []
        while case let got = try reader.read(frames: 8192, into: &block), got > 0 {
            all += block.prefix(got * reader.channels)
        }
        return all
    }

    @Test func sampleCountAndDurationAreExact() throws {
        let shell = try Shell()
        try shell.run("sox -n -r 44100 -c 2 -b 16 tone.wav synth 3.3 sine 440")
        let events = try shell.run("acapture -i tone.wav | aresample -r 16000 -c 1 | acat --events")
        #expect(events.statuses == [0, 0, 0], "\(events.stderr)")
        let audio = events.lines.filter { $0.contains(#""type":"audio""#) }
        #expect(audio == [#"{"type":"audio","position":0,"frames":52800,"t":0.0,"duration":3.3}"#])
        #expect(events.lines.contains { $0.contains(#""duration":3.3"#) && $0.contains("session.end") })
    }

    @Test func stereoFloatFileKeepsItsFormatWithoutAPreset() throws {
        let shell = try Shell()
        try shell.run("sox -n -r 48000 -c 2 -e floating-point -b 32 f.wav synth 0.5 sine 300")
        let result = try shell.run("acapture -i f.wav | acat --events | head -1")
        #expect(result.lines.first == #"{"type":"format","encoding":"f32le","rate":48000,"channels":2}"#)
    }

    @Test func presetConvertsToSixteenBitMono() throws {
        let shell = try Shell()
        try shell.run("sox -n -r 48000 -c 2 f.wav synth 1 sine 300")
        let result = try shell.run("acapture -i f.wav --preset medium --title Talk | acat --events")
        #expect(result.lines.first == #"{"type":"format","encoding":"s16le","rate":22050,"channels":1}"#)
        #expect(result.lines.contains { $0.contains(#""title":"Talk""#) && $0.contains(#""preset":"medium""#) })
        #expect(result.lines.contains { $0.contains(#""frames":22050,"#) })
    }

    @Test func severalFilesAreSeveralSessionsOrOneWithConcat() throws {
        let shell = try Shell()
        try shell.run("sox -n -r 16000 a.wav synth 1 sine 300; sox -n -r 16000 b.wav synth 2 sine 300")
        let separate = try shell.run("acapture -i a.wav -i b.wav | acat --events | grep -c session.start")
        #expect(separate.text == "2\n")
        let joined = try shell.run("acapture --concat -i a.wav -i b.wav | acat --events")
        #expect(joined.lines.filter { $0.contains("session.start") }.count == 1)
        #expect(joined.lines.contains { $0.contains(#""type":"audio","position":0,"frames":48000"#) })
    }

    @Test func wavAndRawOnStandardInput() throws {
        let shell = try Shell()
        try shell.run("sox -n -r 8000 -c 1 -b 16 a.wav synth 0.5 sine 300; sox a.wav -t s16 a.raw")
        let wav = try shell.run("cat a.wav | acapture -i - | acat --raw | cmp - a.raw")
        #expect(wav.statuses == [0, 0, 0, 0], "\(wav.stderr)")
        let raw = try shell.run("acapture -i - --raw-format s16le --rate 8000 --channels 1 < a.raw | acat --raw | cmp - a.raw")
        #expect(raw.statuses == [0, 0, 0], "\(raw.stderr)")
    }

    @Test func splitWritesSessionFiles() throws {
        let shell = try Shell()
        try shell.run("sox -n -r 16000 a.wav synth 1 sine 300")
        let result = try shell.run("acapture -i a.wav | acat -o out && ls out && soxi -s out/*.wav")
        #expect(result.statuses.last == 0, "\(result.stderr)")
        #expect(result.lines.first?.hasPrefix("session-") == true)
        #expect(result.lines.last == "16000")
    }

    @Test func summaryNamesTheSession() throws {
        let shell = try Shell()
        try shell.run("sox -n -r 16000 a.wav synth 1.5 sine 300")
        let result = try shell.run("acapture -i a.wav --title 'Weekly sync' | acat")
        #expect(result.text.contains("\"Weekly sync\""))
        #expect(result.text.contains("duration: 00:01.500"))
    }
}
