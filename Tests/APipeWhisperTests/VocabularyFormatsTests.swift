@testable import APipeWhisper
import Foundation
import Testing

/// Both vocabulary files CTranslate2 conversions ship (`vocabulary.txt`, one token a line;
/// `vocabulary.json`, a JSON list) load alike, and special ids follow the layout of either kind
/// of vocabulary (English-only, multilingual: shifted by one).
struct VocabularyFormatsTests {
    /// A vocabulary laid out as Whisper's: ordinary tokens (50 256 in `.en` models, 50 257 in
    /// multilingual ones), end of text, start of transcript, 99 languages, task and other
    /// specials, then 1501 timestamps.
    static func vocabulary(multilingual: Bool) -> [String] {
        let languages = ["en", "zh", "de"] + (3..<99).map { "l\($0)" }
        var tokens = (0..<(multilingual ? 50257 : 50256)).map { "t\($0)" }
        tokens[0] = "Ġ"
        tokens[1] = "naïve \"quoted\" \\ back"
        tokens += ["<|endoftext|>", "<|startoftranscript|>"] + languages.map { "<|\($0)|>" }
        tokens += ["<|translate|>", "<|transcribe|>", "<|startoflm|>", "<|startofprev|>", "<|nospeech|>", "<|notimestamps|>"]
        tokens += (0...1500).map { String(format: "<|%.2f|>", Double($0) * 0.02) }
        return tokens
    }

    /// Writes `tokens` into a fresh directory as `vocabulary.txt` and/or `vocabulary.json`.
    static func directory(_ tokens: [String], text: Bool, json: Bool) throws -> URL {
        let dir = try Fixtures.temporaryDirectory()
        if text {
            try (tokens.joined(separator: "\n") + "\n").write(
                to: dir.appendingPathComponent("vocabulary.txt"), atomically: true, encoding: .utf8)
        }
        if json { try JSONEncoder().encode(tokens).write(to: dir.appendingPathComponent("vocabulary.json")) }
        return dir
    }

    @Test(arguments: [false, true])
    func jsonAndTextVocabulariesLoadTheSameTokens(multilingual: Bool) throws {
        let tokens = Self.vocabulary(multilingual: multilingual)
        let textDir = try Self.directory(tokens, text: true, json: false)
        let jsonDir = try Self.directory(tokens, text: false, json: true)
        defer { for dir in [textDir, jsonDir] { try? FileManager.default.removeItem(at: dir) } }
        let fromText = try WhisperTokenizer(directory: textDir.path)
        let fromJSON = try WhisperTokenizer(directory: jsonDir.path)
        #expect(fromText.tokens == tokens)
        #expect(fromJSON.tokens == tokens)
        #expect(fromJSON.specials == fromText.specials)
        #expect(fromJSON.count == (multilingual ? 51865 : 51864))
    }

    @Test func specialIdsOfAnEnglishOnlyVocabulary() throws {
        let s = try WhisperTokenizer(tokens: Self.vocabulary(multilingual: false), path: "en", merges: [:]).specials
        #expect([s.endOfText, s.startOfTranscript, s.translate, s.transcribe] == [50256, 50257, 50357, 50358] as [Int])
        #expect([s.startOfPrevious, s.noSpeech, s.noTimestamps, s.timestampBegin] == [50360, 50361, 50362, 50363] as [Int])
        #expect(s.languages.count == 99 && s.languages["en"] == 50258 && s.languages["de"] == 50260)
    }

    @Test func specialIdsOfAMultilingualVocabularyAreShiftedByOne() throws {
        let s = try WhisperTokenizer(tokens: Self.vocabulary(multilingual: true), path: "multi", merges: [:]).specials
        #expect([s.endOfText, s.startOfTranscript, s.translate, s.transcribe] == [50257, 50258, 50358, 50359] as [Int])
        #expect([s.startOfPrevious, s.noSpeech, s.noTimestamps, s.timestampBegin] == [50361, 50362, 50363, 50364] as [Int])
        #expect(s.languages.count == 99 && s.languages["en"] == 50259 && s.languages["de"] == 50261)
    }

    @Test func jsonWinsWhenBothAreThere() throws {
        var stale = Self.vocabulary(multilingual: false)
        stale[5] = "stale"
        let dir = try Self.directory(stale, text: true, json: false)
        defer { try? FileManager.default.removeItem(at: dir) }
        try JSONEncoder().encode(Self.vocabulary(multilingual: false)).write(to: dir.appendingPathComponent("vocabulary.json"))
        #expect(try WhisperTokenizer(directory: dir.path).tokens[5] == "t5")
    }

    @Test func noVocabularyOrABadOneIsNamed() throws {
        let dir = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(throws: WhisperError.notAModel(
            path: dir.path, reason: "missing or unreadable vocabulary (neither vocabulary.json nor vocabulary.txt)"))
        {
            try WhisperTokenizer(directory: dir.path)
        }
        try Data("{\"not\": \"a list\"}".utf8).write(to: dir.appendingPathComponent("vocabulary.json"))
        #expect(throws: WhisperError.notAModel(
            path: dir.path + "/vocabulary.json", reason: "vocabulary.json is not a JSON array of strings"))
        {
            try WhisperTokenizer(directory: dir.path)
        }
    }

    @Test(.enabled(if: Fixtures.modelPresent, Comment(rawValue: Fixtures.skipMessage)))
    func theRealTextVocabularyReadsTheSameAsJSON() throws {
        let text = try WhisperTokenizer(directory: Fixtures.modelDirectory)
        let dir = try Self.directory(text.tokens, text: false, json: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let json = try WhisperTokenizer(directory: dir.path)
        #expect(json.tokens == text.tokens && json.specials == text.specials)
    }
}
