import Foundation
import NimbusDomain
import OpenCombineShim
import CombineSchedulers
import NimbusLoop

extension QuakeDetailViewModel {
    /// "UTC−3", "UTC+5:30", "UTC".
    static func utcOffset(_ seconds: Int) -> String {
        guard seconds != 0 else { return "UTC" }
        let minutes = abs(seconds) / 60
        return "UTC" + (seconds < 0 ? "−" : "+") + String(minutes / 60) + (minutes % 60 == 0 ? "" : String(format: ":%02d", minutes % 60))
    }

    static func state(_ quake: Quake, _ place: QuakePlace?, liked: Bool, failed: Bool, format: QuakeFormatter,
                      now: Date) -> QuakeDetailState {
        let l10n = format.l10n
        let utc = format.weather.clock(in: .utc)
        var facts: [String] = []
        var warnings: Set<Int> = []
        // The time at the epicentre: on the nearest town's clocks, or at sea on the nautical zone's
        // (`QuakesUseCase.zone`), both from the zone database.
        if let place, let zone = format.weather.zones.zone(named: place.zone) {
            let local = format.weather.clock(in: zone).dateTime(quake.time, dateTemplate: "MMMd")
            let when = utc.dateTime(quake.time, dateTemplate: "yMMMd")
            facts.append(place.isNauticalZone
                ? l10n.format(.quakeDetailTimeSea, when, local, Self.utcOffset(zone.offset(at: quake.time)))
                : l10n.format(.quakeDetailTime, when, local))
        } else {
            facts.append(l10n.format(.quakeDetailTimeUTC, utc.dateTime(quake.time, dateTemplate: "yMMMd")) + " · "
                         + format.weather.age(now.timeIntervalSince(quake.time)))
        }
        facts.append(l10n.format(.quakeDetailMagnitude, QuakeFormatter.magnitude(quake.magnitude)
                                 + (quake.magnitudeType.map { " (\($0))" } ?? "")) + " · " + format.depth(quake.depthKilometres))
        facts.append(l10n.format(.quakeDetailEpicentre, WeatherFormatter.coordinates(quake.coordinate),
                                 format.place(quake, place)))
        if let place {
            facts.append(l10n.format(liked ? .quakeDetailNearestLiked : .quakeDetailNearest,
                                     CityNameChoice.name(place.city, language: l10n.language)))
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
        return QuakeDetailState(title: title, nearestTown: format.nearestTown(place),
                                region: quake.place.isEmpty ? "" : l10n.format(.quakeDetailRegion, quake.place),
                                facts: facts, warnings: warnings,
                                nearestCity: place.map { CityNameChoice.name($0.city, language: l10n.language) },
                                nearestLiked: liked, likeError: failed ? l10n[.likesErrorSave] : nil)
    }
}
