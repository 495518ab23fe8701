import NimbusDomain
import OpenCombineShim

/// Official warnings the test answers by hand. Each request gets a subject of its own (the latest is
/// `subject`, each city's latest is in `subjects[city.id]`), or, when `reports` is set, those reports
/// at once. Which cities are covered is `covers` for all, unless `covered` lists the covered ones.
/// Used on one thread only.
public final class ScriptedWarningsRepository: WarningsRepository, @unchecked Sendable {
    public var covers: WarningsCoverage
    /// The ids of the covered cities (covered by the NWS); nil leaves it to `covers`.
    public var covered: Set<Int>?
    /// Answered at once to every request, then finished; nil for a subject per request.
    public var reports: [WarningsReport]?
    /// The ids of the cities asked about, in order.
    public private(set) var asked: [Int] = []
    public private(set) var cancellations = 0
    public private(set) var subject = PassthroughSubject<WarningsReport, WarningsError>()
    public private(set) var subjects: [Int: PassthroughSubject<WarningsReport, WarningsError>] = [:]

    public init(covers: WarningsCoverage = .covered(.nws), covered: Set<Int>? = nil, reports: [WarningsReport]? = nil) {
        self.covers = covers
        self.covered = covered
        self.reports = reports
    }

    /// How many requests were made.
    public var requests: Int { asked.count }

    public func coverage(for city: City) -> WarningsCoverage {
        guard let covered else { return covers }
        return covered.contains(city.id) ? .covered(.nws) : .notCovered
    }

    public func warnings(for city: City) -> AnyPublisher<WarningsReport, WarningsError> {
        asked.append(city.id)
        if let reports { return reports.publisher.setFailureType(to: WarningsError.self).eraseToAnyPublisher() }
        let subject = PassthroughSubject<WarningsReport, WarningsError>()
        self.subject = subject
        subjects[city.id] = subject
        return subject.handleEvents(receiveCancel: { [weak self] in self?.cancellations += 1 }).eraseToAnyPublisher()
    }
}
