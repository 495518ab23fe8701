import Foundation
import Synchronization
import NimbusDomain

/// Each city's warnings as last checked, with the validators of the answer they came from, under
/// `$XDG_CACHE_HOME/nimbus/warnings`: one file per city and source, 0600, written atomically,
/// never through a link. What is kept is the checked warnings, never the raw answer, and they are
/// checked again when read back.
///
/// Kept per city, not per feed: a feed's validators are stored with what was made of that very
/// body for that city, so a 304 can only confirm the city's own warnings.
public final class WarningsCache: Sendable {
    public struct Entry: Equatable, Sendable {
        public let warnings: [WeatherWarning]
        public let checkedAt: Date
        public let validators: HTTPValidators

        public init(warnings: [WeatherWarning], checkedAt: Date, validators: HTTPValidators) {
            self.warnings = warnings
            self.checkedAt = checkedAt
            self.validators = validators
        }
    }

    public let directory: URL
    private let lock = Mutex(())
    /// Fifty warnings of 20,000 characters each, escaped, with room to spare.
    static let maxBytes = 8 << 20

    /// `directory` is the app's cache directory (`$XDG_CACHE_HOME/nimbus`).
    public init(directory: URL) {
        self.directory = directory.appendingPathComponent("warnings")
    }

    private func url(_ source: WeatherWarning.Source, _ cityID: Int) -> URL {
        directory.appendingPathComponent("\(source.rawValue)_\(cityID).json")
    }

    public func read(_ source: WeatherWarning.Source, city: Int) -> Entry? {
        let data = lock.withLock { _ in SafeFile.read(url(source, city), maxBytes: Self.maxBytes) }
        guard let data, let stored = try? JSONDecoder().decode(StoredWarnings.self, from: data) else { return nil }
        return stored.entry(source: source)
    }

    /// Keeps `entry`; failures are ignored (the cache is only a convenience).
    public func write(_ entry: Entry, _ source: WeatherWarning.Source, city: Int) {
        guard let data = try? JSONEncoder().encode(StoredWarnings(entry)), data.count <= Self.maxBytes else { return }
        lock.withLock { _ in
            _ = SafeFile.makeDirectory(directory)
            SafeFile.write(data, to: url(source, city))
        }
    }
}

/// The file's shape; read back through the same checks as a service's answer.
private struct StoredWarnings: Codable {
    struct Warning: Codable {
        let id: String, event: String, severity: Int
        let headline: String?, description: String?, instruction: String?, sender: String?
        let effective: Double?, onset: Double?, expires: Double?, language: String?
    }

    let checkedAt: Double
    let etag: String?
    let lastModified: String?
    let warnings: [Warning]

    init(_ entry: WarningsCache.Entry) {
        checkedAt = entry.checkedAt.timeIntervalSince1970
        etag = entry.validators.etag
        lastModified = entry.validators.lastModified
        warnings = entry.warnings.map {
            Warning(id: $0.id, event: $0.event, severity: $0.severity.rawValue, headline: $0.headline,
                    description: $0.description, instruction: $0.instruction, sender: $0.sender,
                    effective: $0.effective?.timeIntervalSince1970, onset: $0.onset?.timeIntervalSince1970,
                    expires: $0.expires?.timeIntervalSince1970, language: $0.language)
        }
    }

    func entry(source: WeatherWarning.Source) -> WarningsCache.Entry? {
        guard checkedAt.isFinite, let checked = WarningText.believable(Date(timeIntervalSince1970: checkedAt)) else { return nil }
        func date(_ t: Double?) -> Date? { t.flatMap { $0.isFinite ? WarningText.believable(Date(timeIntervalSince1970: $0)) : nil } }
        let kept = warnings.prefix(WarningText.maxWarnings).compactMap { w in
            WarningChecks.warning(id: w.id, source: source, event: w.event,
                                  severity: WeatherWarning.Severity(rawValue: w.severity) ?? .unknown,
                                  headline: w.headline, description: w.description, instruction: w.instruction,
                                  sender: w.sender, effective: date(w.effective), onset: date(w.onset),
                                  expires: date(w.expires), needsExpiry: source != .jma, language: w.language)
        }
        return WarningsCache.Entry(
            warnings: kept, checkedAt: checked,
            validators: HTTPValidators(etag: etag.map { RemoteText.clean($0, maxScalars: 200) },
                                       lastModified: lastModified.map { RemoteText.clean($0, maxScalars: 64) }))
    }
}
