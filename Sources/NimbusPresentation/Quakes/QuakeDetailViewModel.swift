import Foundation
import NimbusDomain
import OpenCombineShim

/// What an event's detail shows.
public struct QuakeDetailState: Equatable, Sendable {
    /// "M 5.1 · 24 km SW of Pohang".
    public let title: String
    /// The feed's own name for the region.
    public let region: String
    /// Every fact, one line each, in order: time (UTC and at the epicentre), depth, position, felt
    /// reports, tsunami flag, PAGER alert, review status, significance, link.
    public let facts: [String]
    /// Facts that call for attention (tsunami, alert): shown in the warning style.
    public let warnings: Set<Int>
    /// The nearest city, which `f` likes or unlikes.
    public let nearestCity: String?
    public let nearestLiked: Bool
    public let notice: String?
}

/// One event: its facts, and `f` on its nearest city.
public final class QuakeDetailViewModel {
    public struct Input {
        public let likeToggled: AnyPublisher<Void, Never>
        public init(likeToggled: AnyPublisher<Void, Never>) { self.likeToggled = likeToggled }
    }

    public struct Output {
        public let state: AnyPublisher<QuakeDetailState, Never>
    }

    public let quake: Quake
    public let place: QuakePlace?
    private let likes: LikeCityUseCase?
    private let format: QuakeFormatter
    private let now: @Sendable () -> Date

    public init(quake: Quake, place: QuakePlace?, likes: LikeCityUseCase?, format: QuakeFormatter,
                now: @escaping @Sendable () -> Date) {
        self.quake = quake
        self.place = place
        self.likes = likes
        self.format = format
        self.now = now
    }

    public func transform(input: Input) -> Output {
        let cityID = place?.city.id
        let likes = self.likes
        // The like follows the store, whichever screen changed it; a like that could not be saved says so.
        let liked: AnyPublisher<Bool, Never> = likes.map { likes in
            likes.contents.map { ids in cityID.map(ids.contains) ?? false }.eraseToAnyPublisher()
        } ?? Just(false).eraseToAnyPublisher()
        enum Event { case liked(Bool), failed(String) }
        let failures = input.likeToggled
            .compactMap { _ -> Event? in
                guard let likes, let cityID else { return nil }
                if case .failure = likes.toggle(cityID) { return .failed(self.format.l10n[.likesErrorSave]) }
                return nil
            }
        let state = merge(liked.map(Event.liked).eraseToAnyPublisher(), failures.eraseToAnyPublisher())
            .scan((liked: false, notice: String?.none)) { model, event in
                switch event {
                case .liked(let liked): return (liked, nil)
                case .failed(let notice): return (model.liked, notice)
                }
            }
            .map { [format, quake, place, now] model in
                Self.state(quake, place, liked: model.liked, notice: model.notice, format: format, now: now())
            }
            .removeDuplicates()
            .eraseToAnyPublisher()
        return Output(state: state)
    }

    static func state(_ quake: Quake, _ place: QuakePlace?, liked: Bool, notice: String?, format: QuakeFormatter,
                      now: Date) -> QuakeDetailState {
        let l10n = format.l10n
        let utc = format.weather.clock(in: TimeZone(identifier: "UTC")!)
        var facts: [String] = []
        var warnings: Set<Int> = []
        if let minutes = quake.timeZoneOffsetMinutes, let zone = TimeZone(secondsFromGMT: minutes * 60) {
            let local = format.weather.clock(in: zone)
            facts.append(l10n.format(.quakeDetailTime, utc.dateTime(quake.time, dateTemplate: "yMMMd"),
                                     local.dateTime(quake.time, dateTemplate: "MMMd")))
        } else {
            facts.append(l10n.format(.quakeDetailTimeUTC, utc.dateTime(quake.time, dateTemplate: "yMMMd")) + " · "
                         + format.weather.age(now.timeIntervalSince(quake.time)))
        }
        facts.append(l10n.format(.quakeDetailMagnitude, QuakeFormatter.magnitude(quake.magnitude)
                                 + (quake.magnitudeType.map { " (\($0))" } ?? "")) + " · " + format.depth(quake.depthKilometres))
        facts.append(l10n.format(.quakeDetailEpicentre, WeatherFormatter.coordinates(quake.coordinate),
                                 format.place(quake, place)))
        if let place {
            facts.append(l10n.format(.quakeDetailNearest, CityNameChoice.name(place.city, language: l10n.language)))
        }
        if let felt = quake.felt, felt > 0 { facts.append(l10n.format(.quakeDetailFelt, l10n.number(felt))) }
        if quake.tsunami {
            warnings.insert(facts.count)
            facts.append(l10n[.quakeDetailTsunami])
        }
        if let alert = quake.alert {
            if alert != .green { warnings.insert(facts.count) }
            facts.append(l10n.format(.quakeDetailAlert, format.alert(alert)))
        }
        facts.append(l10n[quake.reviewed ? .quakeDetailReviewed : .quakeDetailAutomatic])
        if let significance = quake.significance { facts.append(l10n.format(.quakeDetailSignificance, l10n.number(significance))) }
        if let url = quake.url { facts.append(l10n.format(.quakeDetailLink, url)) }
        let title = "M " + QuakeFormatter.magnitude(quake.magnitude) + " · " + format.place(quake, place)
        return QuakeDetailState(title: title, region: quake.place.isEmpty ? "" : l10n.format(.quakeDetailRegion, quake.place),
                                facts: facts, warnings: warnings,
                                nearestCity: place.map { CityNameChoice.name($0.city, language: l10n.language) },
                                nearestLiked: liked, notice: notice)
    }
}
