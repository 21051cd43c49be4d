import Foundation
import Testing

@testable import APipeDSP

/// The VAD on synthesised signals: silence, noise, tones, espeak-ng speech at every tested rate.
struct VADTests {
    static let sentence = "the committee approved the proposal after a long debate"

    @Test func rejectsConfigurationsOutOfRange() {
        #expect(throws: VADError.unsupportedSampleRate(2000)) { try VAD(VADConfiguration(sampleRate: 2000)) }
        #expect(throws: VADError.unsupportedChannelCount(0)) { try VAD(VADConfiguration(sampleRate: 16000, channels: 0)) }
        #expect(throws: VADError.unsupportedHop(0.005)) { try VAD(VADConfiguration(sampleRate: 16000, hop: 0.005)) }
        #expect(throws: VADError.unsupportedAggressiveness(4)) {
            try VAD(VADConfiguration(sampleRate: 16000, aggressiveness: 4))
        }
        #expect(VADError.unsupportedSampleRate(2000).description.contains("2000"))
    }

    @Test(arguments: [8000, 16000, 22050, 44100, 48000])
    func silenceIsNotSpeechAndEveryHopGetsAFrame(rate: Int) throws {
        let samples = [Float](repeating: 0, count: rate * 2 + 17)
        let frames = try VADTestAudio.frames(samples, VADConfiguration(sampleRate: Double(rate)))
        let hop = Int((0.01 * Double(rate)).rounded())
        #expect(frames.count == (samples.count + hop - 1) / hop)
        #expect(frames.map(\.index) == Array(0..<frames.count))
        #expect(frames.allSatisfy { !$0.isSpeech && $0.probability < 0.1 })
    }

    @Test func steadyNoiseIsNotSpeech() throws {
        let samples = VADTestAudio.noise(16000 * 4, rms: 0.05, seed: 3)
        let frames = try VADTestAudio.frames(samples, VADConfiguration(sampleRate: 16000))
        let speech = frames.filter(\.isSpeech).count
        #expect(speech * 20 < frames.count, "\(speech) of \(frames.count) noise frames called speech")
    }

    @Test func speechInNoiseIsFoundAtEveryRate() throws {
        for rate in [8000, 16000, 22050, 44100, 48000] {
            let speech = try VADTestAudio.speech(Self.sentence, rate: rate)
            let lead = rate, tail = rate
            var samples = VADTestAudio.noise(lead + speech.count + tail, rms: 0.003, seed: 5)
            for (i, s) in speech.enumerated() { samples[lead + i] += s }
            let frames = try VADTestAudio.frames(samples, VADConfiguration(sampleRate: Double(rate)))
            let hop = Double(Int((0.01 * Double(rate)).rounded())) / Double(rate)
            let start = 1.0, end = 1.0 + Double(speech.count) / Double(rate)
            let inside = frames.filter { Double($0.index) * hop > start + 0.05 && Double($0.index + 1) * hop < end - 0.05 }
            let outside = frames.filter { Double($0.index + 1) * hop < start - 0.15 || Double($0.index) * hop > end + 0.15 }
            let hit = Double(inside.filter(\.isSpeech).count) / Double(inside.count)
            let falseAlarm = Double(outside.filter(\.isSpeech).count) / Double(outside.count)
            #expect(hit > 0.85, "\(rate) Hz: \(Int(hit * 100)) % of speech frames found")
            #expect(falseAlarm < 0.05, "\(rate) Hz: \(Int(falseAlarm * 100)) % of non-speech frames called speech")
        }
    }

    @Test func stereoListensToTheMeanOfTheChannels() throws {
        let speech = try VADTestAudio.speech(Self.sentence, rate: 16000)
        var stereo = [Float](repeating: 0, count: (16000 + speech.count + 16000) * 2)
        for (i, s) in speech.enumerated() { stereo[(16000 + i) * 2] = s }
        let frames = try VADTestAudio.frames(stereo, VADConfiguration(sampleRate: 16000, channels: 2))
        let found = frames.filter { $0.isSpeech }.count
        #expect(Double(found) > 0.8 * Double(speech.count) / 160)
    }

    @Test func chunkingDoesNotChangeTheResult() throws {
        let speech = try VADTestAudio.speech("hello there", rate: 22050)
        var samples = VADTestAudio.noise(22050 + speech.count, rms: 0.01, seed: 9)
        for (i, s) in speech.enumerated() { samples[11025 + i] += s }
        let configuration = VADConfiguration(sampleRate: 22050, hop: 0.02)
        let whole = try VADTestAudio.frames(samples, configuration, chunk: 1 << 20)
        let pieces = try VADTestAudio.frames(samples, configuration, chunk: 37)
        #expect(whole == pieces)
        #expect(whole.count == (samples.count + 440) / 441)
    }

    @Test func aSteadyToneFadesFromSpeechAsTheFloorLearnsIt() throws {
        let rate = 16000
        let samples = (0..<rate * 8).map { Float(0.1 * sin(2 * Double.pi * 440 * Double($0) / Double(rate))) }
        let frames = try VADTestAudio.frames(samples, VADConfiguration(sampleRate: Double(rate)))
        let late = frames.suffix(200)
        #expect(late.filter(\.isSpeech).count < 10, "a tone held for 8 s is still called speech at the end")
    }
}
