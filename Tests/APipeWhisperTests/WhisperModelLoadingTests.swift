@testable import APipeWhisper
import Foundation
import Testing

@Suite struct WhisperModelLoadingTests {
    /// A model.bin header: version, spec name, revision, no variables.
    static func header(version: UInt32, spec: String, revision: UInt32) -> Data {
        var data = Data()
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        u32(version)
        let name = Array(spec.utf8) + [0]
        withUnsafeBytes(of: UInt16(name.count).littleEndian) { data.append(contentsOf: $0) }
        data.append(contentsOf: name)
        u32(revision)
        u32(0)
        u32(0)
        return data
    }

    static func loadError(_ files: [String: Data]) throws -> String {
        let dir = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (name, data) in files { try data.write(to: dir.appendingPathComponent(name)) }
        do {
            _ = try WhisperModel.load(directory: dir.path)
            return "loaded"
        } catch let error as WhisperError {
            return error.description
        }
    }

    @Test func missingDirectory() {
        #expect(throws: WhisperError.notAModel(path: "/nonexistent/apipe-model", reason: "no such directory")) {
            try WhisperModel.load(directory: "/nonexistent/apipe-model")
        }
    }

    @Test func directoryWithoutModel() throws {
        let message = try Self.loadError(["config.json": Data("{}".utf8)])
        #expect(message.hasPrefix("not a CTranslate2 Whisper model: ") && message.hasSuffix("no model.bin"))
    }

    @Test func wrongVersion() throws {
        let message = try Self.loadError(["model.bin": Self.header(version: 5, spec: "WhisperSpec", revision: 3)])
        #expect(message.hasSuffix("binary version 5, expected 6"), "\(message)")
    }

    @Test func wrongSpec() throws {
        let message = try Self.loadError(["model.bin": Self.header(version: 6, spec: "TransformerSpec", revision: 7)])
        #expect(message.hasSuffix("spec TransformerSpec, expected WhisperSpec"), "\(message)")
    }

    @Test func notAModelFile() throws {
        let message = try Self.loadError(["model.bin": Data("this is text, not weights\n".utf8)])
        #expect(message.hasPrefix("not a CTranslate2 Whisper model: "), "\(message)")
    }

    @Test(.enabled(if: Fixtures.modelPresent, Comment(rawValue: Fixtures.skipMessage)))
    func truncatedModel() throws {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: Fixtures.modelDirectory + "/model.bin"))
        let prefix = try handle.read(upToCount: 3_000_000) ?? Data()
        let message = try Self.loadError(["model.bin": prefix])
        #expect(message.hasPrefix("not a CTranslate2 Whisper model: ") && message.contains("truncated at byte"), "\(message)")
    }

    @Test(.enabled(if: Fixtures.modelPresent, Comment(rawValue: Fixtures.skipMessage)))
    func tinyEnglishDimensions() throws {
        let model = try #require(Fixtures.model)
        #expect(model.dimensions == WhisperDimensions(
            melCount: 80, width: 384, encoderHeads: 6, decoderHeads: 6, encoderLayers: 4, decoderLayers: 4,
            audioContext: 1500, textContext: 448, vocabularySize: 51864))
        #expect(!model.isMultilingual)
    }
}
