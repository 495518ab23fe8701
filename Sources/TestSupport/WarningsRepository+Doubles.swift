import Synchronization
import NimbusDomain
@preconcurrency import OpenCombineShim

/// Official warnings the test answers by hand. Each request gets a subject of its own (the latest is
/// `subject`, each city's latest is in `subjects[city.id]`), or, when `reports` is set, those reports
/// at once. Which cities are covered is `covers` for all, unless `covered` lists the covered ones.
public final class ScriptedWarningsRepository: WarningsRepository, Sendable {
    /// What the tests set and read, and what the calls record.
    private struct State {
        var covers: WarningsCoverage = .notCovered
        var covered: Set<Int>? = nil
        var reports: [WarningsReport]? = nil
        var asked: [Int] = []
        var cancellations: Int = 0
        var subject: PassthroughSubject<WarningsReport, WarningsError> = PassthroughSubject()
        var subjects: [Int: PassthroughSubject<WarningsReport, WarningsError>] = [:]
    }
    private let state = Mutex(State())
    public var covers: WarningsCoverage {
        get { state.withLock { $0.covers } }
        set { state.withLock { $0.covers = newValue } }
    }
    /// The ids of the covered cities (covered by the NWS); nil leaves it to `covers`.
    public var covered: Set<Int>? {
        get { state.withLock { $0.covered } }
        set { state.withLock { $0.covered = newValue } }
    }
    /// Answered at once to every request, then finished; nil for a subject per request.
    public var reports: [WarningsReport]? {
        get { state.withLock { $0.reports } }
        set { state.withLock { $0.reports = newValue } }
    }
    /// The ids of the cities asked about, in order.
    public private(set) var asked: [Int] {
        get { state.withLock { $0.asked } }
        set { state.withLock { $0.asked = newValue } }
    }
    public private(set) var cancellations: Int {
        get { state.withLock { $0.cancellations } }
        set { state.withLock { $0.cancellations = newValue } }
    }
    public private(set) var subject: PassthroughSubject<WarningsReport, WarningsError> {
        get { state.withLock { $0.subject } }
        set { state.withLock { $0.subject = newValue } }
    }
    public private(set) var subjects: [Int: PassthroughSubject<WarningsReport, WarningsError>] {
        get { state.withLock { $0.subjects } }
        set { state.withLock { $0.subjects = newValue } }
    }

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
