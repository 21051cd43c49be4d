/// Ids of Whisper's special tokens, looked up by name so any vocabulary layout works.
public struct WhisperSpecialTokens: Sendable, Equatable {
    public let endOfText: Int
    public let startOfTranscript: Int
    public let translate: Int
    public let transcribe: Int
    public let startOfPrevious: Int
    public let noSpeech: Int
    public let noTimestamps: Int
    /// `<|0.00|>`; every later id is 0.02 s more.
    public let timestampBegin: Int
    /// Language token ids by code (`en`, `de`, ...); `.en` vocabularies list them too but never use them.
    public let languages: [String: Int]

    init(ids: [String: Int], path: String) throws {
        func id(_ names: String...) throws -> Int {
            for name in names { if let id = ids[name] { return id } }
            throw WhisperError.notAModel(path: path, reason: "vocabulary has no \(names[0])")
        }
        endOfText = try id("<|endoftext|>")
        startOfTranscript = try id("<|startoftranscript|>")
        translate = try id("<|translate|>")
        transcribe = try id("<|transcribe|>")
        startOfPrevious = try id("<|startofprev|>")
        noSpeech = try id("<|nospeech|>", "<|nocaptions|>")
        noTimestamps = try id("<|notimestamps|>")
        timestampBegin = try id("<|0.00|>")
        var languages: [String: Int] = [:]
        if translate > startOfTranscript + 1 {
            for (name, id) in ids where id > startOfTranscript && id < translate && name.hasPrefix("<|") && name.hasSuffix("|>") {
                languages[String(name.dropFirst(2).dropLast(2))] = id
            }
        }
        self.languages = languages
    }
}
