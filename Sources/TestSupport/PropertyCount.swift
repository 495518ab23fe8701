import Foundation

/// How many cases a property test runs: modest by default so `swift test` stays fast, raised for a
/// soak with `NIMBUS_PROPERTY_COUNT=N` (a count below a test's default never lowers it).
public enum PropertyCount {
    public static func scaled(default count: Int) -> Int {
        scaled(default: count, environment: ProcessInfo.processInfo.environment)
    }

    public static func scaled(default count: Int, environment: [String: String]) -> Int {
        guard let text = environment["NIMBUS_PROPERTY_COUNT"]?.trimmingCharacters(in: .whitespaces),
              let asked = Int(text), asked > 0 else { return count }
        return max(count, asked)
    }
}
