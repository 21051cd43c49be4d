import APipeDSP
import Foundation

/// A loaded Whisper model (CTranslate2 directory); read-only, so one instance serves many tasks.
public final class WhisperModel: Sendable {
    /// Sizes read from the model file.
    public let dimensions: WhisperDimensions
    /// The model's vocabulary.
    public let tokenizer: WhisperTokenizer
    let weights: WhisperWeights
    let frontEnd: LogMel
    let suppress: [Int]
    let suppressAtBegin: [Int]

    /// True for multilingual models (language and task tokens), false for `.en` models.
    /// As CTranslate2 decides: `.en` vocabularies have 51864 tokens, multilingual ones more.
    public var isMultilingual: Bool { dimensions.vocabularySize >= 51865 }

    private init(weights: WhisperWeights, tokenizer: WhisperTokenizer, suppress: [Int], suppressAtBegin: [Int]) {
        self.weights = weights
        self.dimensions = weights.dimensions
        self.tokenizer = tokenizer
        self.suppress = suppress
        self.suppressAtBegin = suppressAtBegin
        frontEnd = LogMel(melCount: weights.dimensions.melCount)
    }

    /// Language codes the model transcribes: every language token of a multilingual model, `en`
    /// alone for `.en` models (their vocabulary lists the other languages but was never trained on them).
    public var languages: [String] { isMultilingual ? tokenizer.specials.languages.keys.sorted() : ["en"] }

    /// Throws `WhisperError.unknownLanguage` unless the model transcribes `code`.
    public func checkLanguage(_ code: String) throws {
        guard languages.contains(code) else { throw WhisperError.unknownLanguage(code, known: languages) }
    }

    /// Loads `model.bin`, the vocabulary (`vocabulary.json` or `.txt`), `config.json` and
    /// `tokenizer.json` from `directory`.
    public static func load(directory: String) throws -> WhisperModel {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw WhisperError.notAModel(path: directory, reason: "no such directory")
        }
        let modelPath = directory + "/model.bin"
        guard FileManager.default.fileExists(atPath: modelPath) else {
            throw WhisperError.notAModel(path: directory, reason: "no model.bin")
        }
        let weights = try WhisperWeights(file: try ModelFile(path: modelPath), path: modelPath)
        let tokenizer = try WhisperTokenizer(directory: directory)
        guard tokenizer.count == weights.dimensions.vocabularySize else {
            throw WhisperError.notAModel(
                path: directory,
                reason: "vocabulary has \(tokenizer.count) tokens, model has \(weights.dimensions.vocabularySize)")
        }
        let s = tokenizer.specials
        var suppress: [Int] = [s.translate, s.transcribe, s.startOfTranscript, s.startOfPrevious, s.noSpeech]
        var suppressAtBegin: [Int] = [s.endOfText] + (tokenizer.ids["Ġ"].map { [$0] } ?? [])
        let configPath = directory + "/config.json"
        if let data = FileManager.default.contents(atPath: configPath) {
            guard let config = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw WhisperError.notAModel(path: configPath, reason: "config.json is not a JSON object")
            }
            if let ids = config["suppress_ids"] as? [Int] { suppress += ids }
            if let ids = config["suppress_ids_begin"] as? [Int] { suppressAtBegin = ids }
        }
        let vocabulary = weights.dimensions.vocabularySize
        return WhisperModel(
            weights: weights, tokenizer: tokenizer,
            suppress: Array(Set(suppress.filter { $0 >= 0 && $0 < vocabulary })).sorted(),
            suppressAtBegin: suppressAtBegin.filter { $0 >= 0 && $0 < vocabulary })
    }

    /// Log-mel of `samples16k` with Whisper's 30 s of zero padding, frame-major.
    func logMel(_ samples16k: [Float]) -> LogMelSpectrogram {
        frontEnd.compute(samples16k, paddingSamples: LogMel.windowFrames * LogMel.hop)
    }
}
