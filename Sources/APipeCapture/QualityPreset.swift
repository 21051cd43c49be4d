/// The seeds' recording presets: 16-bit mono at three rates.
public enum QualityPreset: String, Sendable, CaseIterable {
    case low, medium, high

    public var rate: Int {
        switch self {
        case .low: 16000
        case .medium: 22050
        case .high: 44100
        }
    }
}
