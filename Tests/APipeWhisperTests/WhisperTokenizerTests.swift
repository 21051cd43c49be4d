@testable import APipeWhisper
import Testing

@Suite(.enabled(if: Fixtures.modelPresent, Comment(rawValue: Fixtures.skipMessage)))
struct WhisperTokenizerTests {
    static let tokenizer = try? WhisperTokenizer(directory: Fixtures.modelDirectory)

    @Test func encodesLikeHuggingFaceTokenizers() throws {
        let tokenizer = try #require(Self.tokenizer)
        // Ids from the `tokenizers` library on the same tokenizer.json.
        #expect(try tokenizer.encode(" Hello world") == [18435, 995])
        #expect(try tokenizer.encode(" It's 42 degrees, isn't it?") == [632, 338, 5433, 7370, 11, 2125, 470, 340, 30])
        #expect(try tokenizer.encode(" naïve café — 東京") == [41492, 40304, 851, 10545, 251, 109, 12859, 105])
        #expect(try tokenizer.encode("a  b\n\nc ") == [64, 220, 275, 198, 198, 66, 220])
    }

    @Test(arguments: [
        " The quick brown fox.", "Hello, world!", " naïve café — 東京 🎉", "a  b\n\nc ", " 3.14 and 1,000,000", "",
    ])
    func decodeInvertsEncode(text: String) throws {
        let tokenizer = try #require(Self.tokenizer)
        #expect(tokenizer.decode(try tokenizer.encode(text)) == text)
    }

    @Test func decodeSkipsSpecialsAndTimestamps() throws {
        let tokenizer = try #require(Self.tokenizer)
        let s = tokenizer.specials
        #expect(s.endOfText == 50256 && s.startOfTranscript == 50257 && s.noSpeech == 50361)
        #expect(s.noTimestamps == 50362 && s.timestampBegin == 50363 && s.languages["en"] == 50258)
        #expect(tokenizer.decode([s.startOfTranscript, s.timestampBegin, 18435, 995, s.timestampBegin + 50, s.endOfText]) == " Hello world")
    }

    @Test func byteTableCoversAllBytes() {
        let scalars = Set((0...255).map { ByteLevel.scalar(of: UInt8($0)) })
        #expect(scalars.count == 256)
        #expect((0...255).allSatisfy { ByteLevel.byte(of: ByteLevel.scalar(of: UInt8($0))) == UInt8($0) })
        #expect(ByteLevel.scalar(of: 32) == "Ġ")
    }
}
