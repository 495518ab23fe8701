import Foundation
import OpenCombineShim
import CombineSchedulers

/// A screen's spinner as its `changes` want it: while the screen's state says something loads, a
/// step every 100 ms on the app's scheduler, each step a frame; none otherwise.
///
/// The frame the spinner draws is animation, not the view model's state: `step` counts the steps
/// so far (the frame index, kept by the screen like any other measurement). It goes on counting
/// from where it was when loading starts again.
@MainActor
final class SpinnerSteps {
    /// Steps so far: the frame to draw (`Spinner.frame(step)`).
    private(set) var step = 0
    private let scheduler: AnySchedulerOf<DispatchQueue>

    static let interval: DispatchQueue.SchedulerTimeType.Stride = .milliseconds(100)

    init(scheduler: AnySchedulerOf<DispatchQueue>) {
        self.scheduler = scheduler
    }

    /// `ticks(while:)` for a screen's state: loading while `isLoading` says so of the binding's
    /// latest state, starting from the state it holds when subscribed.
    func ticks<State>(following binding: StateBinding<State>, isLoading: @escaping (State) -> Bool) -> AnyPublisher<Void, Never> {
        ticks(while: binding.changes.map { binding.value.map(isLoading) ?? false }
            .prepend(Deferred { Just(binding.value.map(isLoading) ?? false) })
            .eraseToAnyPublisher())
    }

    /// A step every 100 ms while the latest of `loading` is true, counted into `step`; the first
    /// 100 ms after loading starts.
    private func ticks(while loading: AnyPublisher<Bool, Never>) -> AnyPublisher<Void, Never> {
        let scheduler = self.scheduler
        return loading
            .removeDuplicates()
            .map { on -> AnyPublisher<Void, Never> in
                on ? scheduler.timerPublisher(every: Self.interval).autoconnect().map { _ in () }.eraseToAnyPublisher()
                   : Empty().eraseToAnyPublisher()
            }
            .switchToLatest()
            .handleEvents(receiveOutput: { [weak self] in
                MainActor.assumeIsolated { self?.step += 1 }
            })
            .eraseToAnyPublisher()
    }
}
