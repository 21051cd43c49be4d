import Foundation

extension LogMel {
    /// Slaney-scale mel filters with Slaney area normalisation (librosa `mel(htk=False, norm="slaney")`).
    ///
    /// Returns `melCount` rows of `binCount` weights covering 0 Hz to the Nyquist frequency.
    static func slaneyFilters(melCount: Int) -> [Float] {
        let nyquist = Double(sampleRate) / 2
        let melMax = hertzToMel(nyquist)
        let edges = (0..<(melCount + 2)).map { melToHertz(melMax * Double($0) / Double(melCount + 1)) }
        var weights = [Float](repeating: 0, count: melCount * binCount)
        for m in 0..<melCount {
            let lowWidth = edges[m + 1] - edges[m]
            let highWidth = edges[m + 2] - edges[m + 1]
            let norm = 2 / (edges[m + 2] - edges[m])
            for k in 0..<binCount {
                let f = nyquist * Double(k) / Double(binCount - 1)
                let rising = (f - edges[m]) / lowWidth
                let falling = (edges[m + 2] - f) / highWidth
                weights[m * binCount + k] = Float(max(0, min(rising, falling)) * norm)
            }
        }
        return weights
    }

    /// Slaney mel of a frequency: linear (200/3 Hz per mel) below 1 kHz, logarithmic above.
    static func hertzToMel(_ hertz: Double) -> Double {
        let linearStep = 200.0 / 3, breakHertz = 1000.0, logStep = log(6.4) / 27
        if hertz < breakHertz { return hertz / linearStep }
        return breakHertz / linearStep + log(hertz / breakHertz) / logStep
    }

    /// Inverse of `hertzToMel`.
    static func melToHertz(_ mel: Double) -> Double {
        let linearStep = 200.0 / 3, breakHertz = 1000.0, logStep = log(6.4) / 27
        let breakMel = breakHertz / linearStep
        if mel < breakMel { return mel * linearStep }
        return breakHertz * exp(logStep * (mel - breakMel))
    }
}
