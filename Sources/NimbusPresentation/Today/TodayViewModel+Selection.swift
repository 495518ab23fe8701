import Foundation
import NimbusDomain
@preconcurrency import OpenCombineShim
import CombineSchedulers
import NimbusLoop

extension TodayViewModel {
    // MARK: Selection

    /// Every stop of the selection, in order: each section's rows, or its message when it has none.
    static func targets(_ state: State) -> [TodayTarget] {
        targets(places: state.places.count, quakes: state.near.count,
                wishlist: newest(state.wishlist ?? []).count, viewed: min(state.viewed.count, viewedLimit))
    }

    /// The stops for sections of these many rows (the screen brings a section's first stop into view
    /// with its header).
    public static func targets(places: Int, quakes: Int, wishlist: Int, viewed: Int) -> [TodayTarget] {
        var targets: [TodayTarget] = (0..<places).map { .item(.place($0)) }
        if places == 0 { targets.append(.section(.places)) }
        targets += (0..<quakes).map { .item(.quake($0)) }
        if quakes == 0 { targets.append(.section(.quakes)) }
        targets += (0..<wishlist).map { .item(.wishlist($0)) }
        targets += (0..<viewed).map { .item(.viewed($0)) }
        if wishlist == 0 && viewed == 0 { targets.append(.section(.films)) }
        return targets
    }

    /// The selection after the rows changed: the same stop while it is there; else the same section's
    /// first stop (its rows came or went); else the first of all.
    static func keptSelection(_ state: State) -> TodayTarget? {
        let targets = targets(state)
        if let selection = state.selection, targets.contains(selection) { return selection }
        let section = state.selection?.section
        return targets.first { $0.section == section } ?? targets.first
    }

    /// Where `move` takes the selection among `targets`.
    static func moved(_ selection: TodayTarget?, _ move: TodayMove, stops targets: [TodayTarget]) -> TodayTarget? {
        // The viewed strip is one stop for ↑ ↓; ← → move along it.
        let stops = targets.filter { if case .item(.viewed(let i)) = $0 { return i == 0 } else { return true } }
        guard !stops.isEmpty else { return selection }
        let current: TodayTarget? = { if case .item(.viewed)? = selection { return .item(.viewed(0)) } else { return selection } }()
        let index = current.flatMap { stops.firstIndex(of: $0) } ?? 0
        func stop(_ i: Int) -> TodayTarget { stops[min(max(0, i), stops.count - 1)] }
        switch move {
        case .by(let n): return stop(index + n)
        case .first: return stop(0)
        case .last: return stop(stops.count - 1)
        case .section(let step):
            let section = current?.section ?? .places
            let count = TodaySection.allCases.count
            let next = TodaySection(rawValue: ((section.rawValue + step) % count + count) % count) ?? .places
            return stops.first { $0.section == next } ?? selection
        case .along(let step):
            guard case .item(.viewed(let i))? = selection else { return selection }
            let viewed = targets.filter { if case .item(.viewed) = $0 { return true } else { return false } }.count
            return .item(.viewed(min(max(0, i + step), viewed - 1)))
        }
    }
}
