import Foundation
@preconcurrency import OpenCombineShim
import CombineSchedulers

/// A clock for times shown to the minute: now, then at the start of each minute (a one-shot timer to
/// the minute's end, then one a minute), on the scheduler it is given. A scene container supplies it
/// as a view model's `tick` input; the view model keeps no timer.
public enum MinuteTicks {
    /// Each tick is a hair past the minute: a timer that fires on the boundary reads a time just before it.
    public static func publisher(on scheduler: AnySchedulerOf<DispatchQueue>,
                                 now: @escaping @Sendable () -> Date) -> AnyPublisher<Date, Never> {
        Deferred { () -> AnyPublisher<Void, Never> in
            let untilNextMinute = 60 - now().timeIntervalSince1970.truncatingRemainder(dividingBy: 60)
            return scheduler.timerPublisher(every: .milliseconds(max(1, Int((untilNextMinute * 1000).rounded(.up)))))
                .autoconnect()
                .first()
                .flatMap { _ in scheduler.timerPublisher(every: .seconds(60)).autoconnect().map { _ in () }.prepend(()) }
                .prepend(())
                .eraseToAnyPublisher()
        }
        .map { _ in now().addingTimeInterval(0.001) }
        .eraseToAnyPublisher()
    }
}
