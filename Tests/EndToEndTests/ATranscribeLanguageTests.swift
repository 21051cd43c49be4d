import Foundation
import Testing

/// `atranscribe --engine whisper` and languages, through the built tools: an English-only model
/// refuses another language; the multilingual base model (vocabulary.json) loads, refuses codes
/// it does not know and reports the language it detects. Base tests are skipped without it.
@Suite(.serialized) struct ATranscribeLanguageTests {
    /// tiny.en: env APIPE_MODEL, else `models/tiny.en`.
    static let tinyModel = ProcessInfo.processInfo.environment["APIPE_MODEL"].flatMap { $0.isEmpty ? nil : $0 }
        ?? Shell.packageRoot.appendingPathComponent("models/tiny.en").path
    /// base (`make model MODEL=base`): env APIPE_MODEL_BASE, else `models/base`.
    static let baseModel = ProcessInfo.processInfo.environment["APIPE_MODEL_BASE"].flatMap { $0.isEmpty ? nil : $0 }
        ?? Shell.packageRoot.appendingPathComponent("models/base").path
    static var tinyPresent: Bool { FileManager.default.fileExists(atPath: tinyModel + "/model.bin") }
    static var basePresent: Bool { FileManager.default.fileExists(atPath: baseModel + "/model.bin") }

    @Test(.enabled(if: tinyPresent, "tiny.en model absent (run `make model`)"))
    func anEnglishOnlyModelRefusesAnotherLanguage() throws {
        let shell = try Shell()
        let result = try shell.run("atranscribe --engine whisper --model '\(Self.tinyModel)' --language de --jsonl < /dev/null")
        #expect(result.statuses == [64])
        #expect(result.stderr.contains("language 'de' is not available: the model is English-only"), "\(result.stderr)")
        #expect(result.lines.isEmpty)
    }

    @Test(.enabled(if: basePresent, "base model absent (run `make model MODEL=base`)"))
    func anUnknownLanguageIsAUsageErrorNamingIt() throws {
        let shell = try Shell()
        let result = try shell.run("atranscribe --engine whisper --model '\(Self.baseModel)' --language xx --jsonl < /dev/null")
        #expect(result.statuses == [64])
        #expect(result.stderr.contains("unknown language 'xx' (the model knows: af am ar"), "\(result.stderr)")
    }

    @Test(.enabled(if: basePresent, "base model absent (run `make model MODEL=base`)"))
    func theDetectedLanguageIsInTheTranscriptionEvent() throws {
        let shell = try Shell()
        _ = try shell.speech("Guten Morgen. Das Wetter ist heute sehr schön, und wir gehen in den Park.", name: "de.wav", voice: "de")
        _ = try shell.speech("Please call Stella and ask her to bring these things with her from the store.", name: "en.wav")
        var languages: [String?] = []
        for name in ["de", "en"] {
            let result = try shell.run("acapture -i \(name).wav | atranscribe --engine whisper --model '\(Self.baseModel)' --jsonl")
            #expect(result.statuses == [0, 0], "\(result.stderr)")
            let event = try result.lines.first.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            #expect((event??["text"] as? String)?.isEmpty == false, "\(result.text)")
            languages.append(event??["language"] as? String)
        }
        #expect(languages == ["de", "en"])
    }
}
