import Foundation

/// How times are written: durations, cue timestamps, dates.
public enum TimeText {
    /// `H:MM:SS` for an hour or more, else `M:SS`.
    public static func duration(_ seconds: Double) -> String {
        let total = Int(max(0, seconds).rounded())
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        return h > 0 ? String(format: "%d:%02d:%02d", h, m, s) : String(format: "%d:%02d", m, s)
    }

    /// `HH:MM:SS<separator>mmm`: `,` for SRT, `.` for WebVTT.
    public static func cue(_ seconds: Double, separator: Character) -> String {
        let millis = Int((max(0, seconds) * 1000).rounded())
        let (h, m, s, ms) = (millis / 3_600_000, millis / 60_000 % 60, millis / 1000 % 60, millis % 1000)
        return String(format: "%02d:%02d:%02d", h, m, s) + String(separator) + String(format: "%03d", ms)
    }

    /// Seconds with millisecond precision, for positions inside a session (`12.345`).
    public static func seconds(_ value: Double) -> String {
        String(format: "%.3f", value)
    }

    /// ISO-8601 in UTC (`2026-11-22T06:09:54Z`).
    public static func iso(_ unix: Double) -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: Date(timeIntervalSince1970: unix))
    }

    /// `yyyy-MM-dd` and `HH:mm` in `zone`.
    public static func day(_ unix: Double, in zone: TimeZone) -> String { format(unix, "yyyy-MM-dd", zone) }
    public static func clock(_ unix: Double, in zone: TimeZone) -> String { format(unix, "HH:mm", zone) }

    private static func format(_ unix: Double, _ pattern: String, _ zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = pattern
        return formatter.string(from: Date(timeIntervalSince1970: unix))
    }

    /// Parses `2026-11-22`, `2026-11-22T10:00:00Z` (UTC unless an offset is given), or an age such
    /// as `90d`, `12h`, `2w` counted back from `now`.
    public static func instant(_ text: String, now: Double, zone: TimeZone) throws(StoreError) -> Double {
        if let age = try? age(text) { return now - age }
        if let unix = IngestStore.parseDate(text) { return unix }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd"
        if let date = formatter.date(from: text) { return date.timeIntervalSince1970 }
        throw .badValue("'\(text)' is not a date (2026-11-22, 2026-11-22T10:00:00Z) or an age (90d, 12h, 2w)")
    }

    /// Seconds in an age such as `90d`, `36h`, `2w`, `30m`.
    public static func age(_ text: String) throws(StoreError) -> Double {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604_800]
        guard let unit = text.last, let scale = units[unit], let value = Double(text.dropLast()), value >= 0 else {
            throw .badValue("'\(text)' is not an age (a number and a unit: 90d, 36h, 2w, 30m, 10s)")
        }
        return value * scale
    }
}
