import Foundation
import NimbusData
import NimbusPresentation
import NimbusUI
import CombineSchedulers
import OpenCombineShim

/// The network's retries as the status bar says them ("forecast: rate limited, retrying in 12 s"):
/// the last one waiting, counted down each second while any waits.
@MainActor
final class RetryCountdown {
    private let status: HTTPRetryStatus
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let l10n: L10n
    private let needsDisplay: NeedsDisplay
    private var wait: HTTPRetryWait?
    private var observation: AnyCancellable?
    private var ticker: Cancellable?

    init(status: HTTPRetryStatus, scheduler: AnySchedulerOf<DispatchQueue>, l10n: L10n, needsDisplay: NeedsDisplay) {
        self.status = status
        self.scheduler = scheduler
        self.l10n = l10n
        self.needsDisplay = needsDisplay
    }

    /// Starts listening: retries are heard on any thread and handled on the app's scheduler (the main queue).
    func start() {
        let scheduler = self.scheduler
        observation = status.observe { [weak self] in
            scheduler.schedule { MainActor.assumeIsolated { self?.changed() } }
        }
    }

    /// A retry began or went out: redrawn each second while any waits.
    private func changed() {
        wait = status.latest
        if wait == nil {
            ticker?.cancel()
            ticker = nil
        } else if ticker == nil {
            ticker = scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1)), interval: .seconds(1)) {
                [weak self] in MainActor.assumeIsolated { self?.needsDisplay.set() }
            }
        }
        needsDisplay.set()
    }

    /// What the status bar says while a retry waits; nil when none does.
    var message: String? {
        guard let wait else { return nil }
        let seconds = l10n.number(max(1, wait.secondsLeft(at: scheduler.now)))
        let text: String
        switch wait.reason {
        case .rateLimited: text = l10n.format(.statusRetryRateLimited, seconds)
        case .unavailable: text = l10n.format(.statusRetryUnavailable, seconds)
        case .connectionFailed: text = l10n.format(.statusRetryConnection, seconds)
        }
        guard let subject = wait.subject else { return text }
        return l10n.format(.statusRetrySubject, Self.name(subject, l10n: l10n), text)
    }

    static func name(_ subject: RequestSubject, l10n: L10n) -> String {
        switch subject {
        case .forecast: l10n[.retrySubjectForecast]
        case .airQuality: l10n[.retrySubjectAir]
        case .earthquakes: l10n[.retrySubjectQuakes]
        case .films: l10n[.retrySubjectFilms]
        case .warnings: l10n[.retrySubjectWarnings]
        case .normals: l10n[.retrySubjectNormals]
        }
    }
}
