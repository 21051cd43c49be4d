@testable import APipeWhisper
import Foundation
import Testing

/// The multilingual base model (vocabulary.json, shifted special ids) on espeak-ng speech:
/// it loads, detects the language when none is given, and honours a forced one.
@Suite(.enabled(if: Fixtures.baseModelPresent, Comment(rawValue: Fixtures.baseSkipMessage)))
struct MultilingualModelTests {
    @Test func loadsWithItsJSONVocabularyAndShiftedSpecials() throws {
        let model = try #require(Fixtures.baseModel)
        #expect(model.isMultilingual)
        let s = model.tokenizer.specials
        let ids = [s.endOfText, s.startOfTranscript, s.transcribe, s.noTimestamps, s.timestampBegin]
        #expect(ids == [50257, 50258, 50359, 50363, 50364])
        #expect(model.languages.count == 99 && model.languages.contains("de"))
    }

    @Test func englishSpeechIsDetectedAsEnglishAndTranscribed() throws {
        let model = try #require(Fixtures.baseModel)
        let text = "Please call Stella and ask her to bring these things with her from the store."
        let result = try model.transcribe(try Fixtures.speech(text))
        #expect(result.language == "en")
        let wer = Fixtures.wordErrorRate(reference: text, hypothesis: result.text)
        #expect(wer <= 30, "WER \(wer) %: \(result.text)")
    }

    @Test func germanSpeechIsDetectedAsGerman() throws {
        let model = try #require(Fixtures.baseModel)
        let samples = try Fixtures.speech("Guten Morgen. Das Wetter ist heute sehr schön, und wir gehen in den Park.", voice: "de")
        let result = try model.transcribe(samples)
        #expect(result.language == "de", "\(result.language): \(result.text)")
        #expect(!result.text.isEmpty)
    }

    @Test func aGivenLanguageIsUsedAndAnUnknownOneRefused() throws {
        let model = try #require(Fixtures.baseModel)
        let samples = try Fixtures.speech("It is easy to tell the depth of a well.")
        #expect(try model.transcribe(samples, options: WhisperOptions(language: "de", temperatures: [0])).language == "de")
        #expect(throws: WhisperError.unknownLanguage("xx", known: model.languages)) {
            try model.transcribe(samples, options: WhisperOptions(language: "xx"))
        }
    }
}
