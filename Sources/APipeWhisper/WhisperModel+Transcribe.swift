import APipeDSP
import Foundation

extension WhisperModel {
    /// Frames of silence kept after the audio when the encoder context is shortened, so the
    /// model still sees the speech end (1 s).
    static let shortenedContextMargin = 100

    /// Transcribes mono 16 kHz samples (-1...1) of any length in 30 s windows.
    ///
    /// Safe to call from several tasks at once: all state is per call.
    public func transcribe(_ samples16k: [Float], options: WhisperOptions = WhisperOptions()) throws -> WhisperResult {
        if let threads = options.threads {
            guard threads > 0 else { throw WhisperError.invalidRequest("threads must be positive, got \(threads)") }
            BLAS.setThreads(threads)
        }
        guard !options.temperatures.isEmpty else { throw WhisperError.invalidRequest("no temperatures to decode with") }
        let specials = tokenizer.specials
        let mel = logMel(samples16k)
        let contentFrames = max(0, mel.frames - LogMel.windowFrames)
        let windowFrames = 2 * dimensions.audioContext
        let encoder = WhisperEncoder(weights: weights)
        let decoder = WhisperDecoder(weights: weights)
        let rules = LogitRules(
            specials: specials, suppress: suppress, suppressAtBegin: suppressAtBegin, timestamps: options.timestamps,
            maxInitialTimestampIndex: Int((options.maxInitialTimestamp / 0.02).rounded()))
        let windowDecoder = WindowDecoder(decoder: decoder, rules: rules, tokenizer: tokenizer)
        var random = SplitMix64(seed: options.seed)

        var language = "en"
        if let code = options.language {
            try checkLanguage(code)
            language = code
        }
        var promptTokens: [Int] = try options.prompt.map { try tokenizer.encode(" " + $0.trimmingCharacters(in: .whitespaces)) } ?? []
        var promptResetSince = 0
        var phrases: [WhisperPhrase] = []
        var allTokens: [Int] = []
        var logProbSum: Float = 0, logProbCount = 0
        var maxNoSpeech: Float = 0
        var seek = 0
        while seek < contentFrames {
            let segmentFrames = min(windowFrames, contentFrames - seek)
            let encodedFrames = options.shortenEncoderContext
                ? min(windowFrames, (segmentFrames + WhisperModel.shortenedContextMargin + 1) / 2 * 2) : windowFrames
            let window = mel.window(start: seek, frames: segmentFrames, paddedTo: encodedFrames)
            let encoded = window.withUnsafeBufferPointer { encoder.encode(mel: $0.baseAddress!, frames: encodedFrames) }
            let state = DecoderState(
                dimensions: dimensions, ffn: weights.decoderLayers[0].ffnIn.outputs,
                crossKeyValues: decoder.crossKeyValues(encoded: encoded))
            if isMultilingual && options.language == nil && seek == 0 {
                language = detectLanguage(decoder: decoder, state: state)
            }
            var sotSequence = [specials.startOfTranscript]
            if isMultilingual, let id = specials.languages[language] {
                sotSequence += [id, options.translate ? specials.translate : specials.transcribe]
            }
            if !options.timestamps { sotSequence.append(specials.noTimestamps) }
            let context = Array(promptTokens[promptResetSince...].suffix(dimensions.textContext / 2 - 1))
            let prefix = (context.isEmpty ? [] : [specials.startOfPrevious] + context) + sotSequence
            let maxTokens = min(dimensions.textContext / 2, dimensions.textContext - prefix.count)
            let result = decodeWithFallback(
                windowDecoder, prefix: prefix, sotIndex: prefix.count - sotSequence.count, maxTokens: maxTokens,
                state: state, options: options, random: &random)
            let windowStart = Double(seek) * Double(LogMel.hop) / Double(LogMel.sampleRate)
            if result.noSpeechProb > options.noSpeechThreshold && result.avgLogProb < options.logProbThreshold {
                seek += segmentFrames
                continue
            }
            maxNoSpeech = max(maxNoSpeech, result.noSpeechProb)
            logProbSum += result.avgLogProb * Float(result.tokens.count + 1)
            logProbCount += result.tokens.count + 1
            let split = splitPhrases(result, windowStart: windowStart, segmentFrames: segmentFrames)
            phrases += split.phrases
            seek += split.advance
            let windowTokens = split.phrases.flatMap(\.tokens)
            allTokens += windowTokens
            if options.conditionOnPreviousText {
                promptTokens += windowTokens
                if result.temperature > 0.5 { promptResetSince = promptTokens.count }
            } else {
                promptResetSince = promptTokens.count
            }
        }
        let avgLogProb = logProbCount > 0 ? logProbSum / Float(logProbCount) : 0
        return WhisperResult(
            text: phrases.map(\.text).filter { !$0.isEmpty }.joined(separator: " "), language: language,
            phrases: phrases, avgLogProb: avgLogProb, noSpeechProb: maxNoSpeech,
            confidence: logProbCount > 0 ? expf(avgLogProb) : 0, tokens: allTokens,
            duration: Double(samples16k.count) / Double(LogMel.sampleRate))
    }

    /// Decodes at each temperature in turn until a result is neither repetitive nor unlikely
    /// (or is silence); at temperatures above 0 the best of `bestOf` samples is kept. When all
    /// fail, the likeliest non-repetitive result wins (as faster-whisper; openai keeps the last).
    private func decodeWithFallback(
        _ decoder: WindowDecoder, prefix: [Int], sotIndex: Int, maxTokens: Int, state: DecoderState,
        options: WhisperOptions, random: inout SplitMix64
    ) -> WindowDecoding {
        var tried: [WindowDecoding] = []
        for temperature in options.temperatures {
            var result = decoder.decode(
                prefix: prefix, sotIndex: sotIndex, temperature: temperature, maxTokens: maxTokens, state: state, random: &random)
            if temperature > 0 {
                for _ in 1..<max(1, options.bestOf) {
                    let sample = decoder.decode(
                        prefix: prefix, sotIndex: sotIndex, temperature: temperature, maxTokens: maxTokens, state: state,
                        random: &random)
                    if sample.sumLogProb / Float(max(1, sample.tokens.count)) > result.sumLogProb / Float(max(1, result.tokens.count)) {
                        result = sample
                    }
                }
            }
            let tooRepetitive = result.compressionRatio > options.compressionRatioThreshold
            let tooUnlikely = result.avgLogProb < options.logProbThreshold
            let silent = result.noSpeechProb > options.noSpeechThreshold && tooUnlikely
            if silent || !(tooRepetitive || tooUnlikely) { return result }
            tried.append(result)
        }
        let candidates = tried.filter { $0.compressionRatio <= options.compressionRatioThreshold }
        return (candidates.isEmpty ? tried : candidates).max { $0.avgLogProb < $1.avgLogProb } ?? tried[tried.count - 1]
    }

    /// Cuts a window's tokens at timestamp pairs into phrases; returns them and how far to seek (frames).
    private func splitPhrases(
        _ result: WindowDecoding, windowStart: Double, segmentFrames: Int
    ) -> (phrases: [WhisperPhrase], advance: Int) {
        let tokens = result.tokens
        let begin = tokenizer.specials.timestampBegin
        let isTimestamp = tokens.map { $0 >= begin }
        func time(_ token: Int) -> Double { windowStart + Double(token - begin) * 0.02 }
        func phrase(_ range: Range<Int>, start: Double, end: Double) -> WhisperPhrase {
            let slice = Array(tokens[range])
            let logProbs = result.logProbs[range]
            return WhisperPhrase(
                start: start, end: end, text: tokenizer.decode(slice).trimmingCharacters(in: .whitespaces), tokens: slice,
                avgLogProb: logProbs.isEmpty ? 0 : logProbs.reduce(0, +) / Float(logProbs.count))
        }
        let singleTimestampEnding = tokens.count >= 2 && !isTimestamp[tokens.count - 2] && isTimestamp[tokens.count - 1]
        var cuts: [Int] = []
        if tokens.count >= 2 {
            for i in 1..<tokens.count where isTimestamp[i - 1] && isTimestamp[i] { cuts.append(i) }
        }
        if !cuts.isEmpty {
            if singleTimestampEnding { cuts.append(tokens.count) }
            var phrases: [WhisperPhrase] = []
            var last = 0
            for cut in cuts {
                phrases.append(phrase(last..<cut, start: time(tokens[last]), end: time(tokens[cut - 1])))
                last = cut
            }
            let advance = singleTimestampEnding ? segmentFrames : (tokens[last - 1] - begin) * 2
            return (phrases.filter { !$0.text.isEmpty }, max(1, advance))
        }
        var duration = Double(segmentFrames) * Double(LogMel.hop) / Double(LogMel.sampleRate)
        if let lastTimestamp = tokens.last(where: { $0 >= begin }), lastTimestamp != begin {
            duration = Double(lastTimestamp - begin) * 0.02
        }
        let only = phrase(0..<tokens.count, start: windowStart, end: windowStart + duration)
        return (only.text.isEmpty ? [] : [only], segmentFrames)
    }

    /// The likeliest language token after `<|startoftranscript|>`.
    private func detectLanguage(decoder: WhisperDecoder, state: DecoderState) -> String {
        let specials = tokenizer.specials
        state.length = 0
        let logits = decoder.forward([specials.startOfTranscript], state: state, logitRows: [0])
        var best = "en", bestLogit = -Float.infinity
        for (code, id) in specials.languages where logits.pointer[id] > bestLogit {
            best = code
            bestLogit = logits.pointer[id]
        }
        withExtendedLifetime(logits) {}
        return best
    }
}
