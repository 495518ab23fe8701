import Foundation
import OpenCombineShim

/// A day's high and low (°C): yesterday's, beside today's forecast.
public struct DayTemperatures: Equatable, Sendable {
    /// The place's own calendar date.
    public let day: LocalDate
    public let high: Double
    public let low: Double

    public init(day: LocalDate, high: Double, low: Double) {
        self.day = day
        self.high = high
        self.low = low
    }
}

/// How one temperature compares with another: the difference, to a tenth of a degree, and in a
/// word that follows from that same number (what is shown and what is said never disagree).
public struct TemperatureDifference: Equatable, Sendable {
    public enum Direction: String, Equatable, Sendable {
        case warmer, colder, aboutTheSame
    }

    /// Signed, °C, rounded to a tenth.
    public let degrees: Double

    /// Differences smaller than this (°C, after rounding to a tenth) are "about the same": within
    /// what a forecast can tell.
    public static let aboutTheSameBelow = 1.0

    /// `value` against `reference`; nil when either is not a number.
    public init?(_ value: Double, comparedWith reference: Double) {
        guard value.isFinite, reference.isFinite else { return nil }
        self.init(degrees: value - reference)
    }

    /// A difference of `degrees` °C (rounded to a tenth here).
    public init(degrees: Double) {
        let tenths = (degrees * 10).rounded() / 10
        self.degrees = tenths == 0 ? 0 : tenths
    }

    public var direction: Direction {
        abs(degrees) < Self.aboutTheSameBelow ? .aboutTheSame : degrees > 0 ? .warmer : .colder
    }
}

/// The 1991–2020 mean high and low of one calendar day at a place.
public struct DayNormal: Equatable, Sendable {
    public let month: Int
    public let day: Int
    public let high: Double
    public let low: Double

    public init(month: Int, day: Int, high: Double, low: Double) {
        self.month = month
        self.day = day
        self.high = high
        self.low = low
    }
}

/// A place's climate normals: the 1991–2020 mean daily high and low for every day of the year
/// (29 February included), each the mean over the 30 years of a window of days around it.
public struct ClimateNormals: Equatable, Sendable {
    /// The reference period.
    public static let years = 1991...2020
    /// Days either side of a date whose highs and lows go into its normal (a 15-day window): one
    /// day's 30 values alone are noisy.
    public static let windowHalfWidth = 7

    public let coordinate: Coordinate
    /// 366 days, 1 January first, 29 February at index 59.
    public let days: [DayNormal]

    /// Nil unless `days` is a whole year of 366 days with finite, ordered values.
    public init?(coordinate: Coordinate, days: [DayNormal]) {
        guard days.count == 366,
              days.allSatisfy({ $0.high.isFinite && $0.low.isFinite && $0.low <= $0.high }) else { return nil }
        self.coordinate = coordinate
        self.days = days
    }

    /// Index of (month, day) in a 366-day year, or nil when there is no such day.
    public static func index(month: Int, day: Int) -> Int? {
        let lengths = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...12).contains(month), (1...lengths[month - 1]).contains(day) else { return nil }
        return lengths.prefix(month - 1).reduce(0, +) + day - 1
    }

    /// The normal of the calendar date `day`.
    public func normal(on day: LocalDate) -> DayNormal? {
        Self.index(month: day.month, day: day.day).map { days[$0] }
    }
}

/// Today's high and low against the normal for the date.
public struct NormalComparison: Equatable, Sendable {
    public let normal: DayNormal
    public let high: TemperatureDifference?
    public let low: TemperatureDifference?

    public init(normal: DayNormal, todayHigh: Double, todayLow: Double) {
        self.normal = normal
        high = TemperatureDifference(todayHigh, comparedWith: normal.high)
        low = TemperatureDifference(todayLow, comparedWith: normal.low)
    }
}

extension Forecast {
    /// The forecast's first day: today at the place.
    public var today: DailyForecast? { daily.first }

    /// Today's high against yesterday's (nil when either is missing).
    public var todayAgainstYesterday: TemperatureDifference? {
        guard let today, let yesterday else { return nil }
        return TemperatureDifference(today.high, comparedWith: yesterday.high)
    }
}

public enum ClimateError: Error, Equatable, Sendable {
    case offline
    case timedOut
    case rateLimited
    case server(status: Int)
    /// The answer was not 30 years of daily highs and lows.
    case badResponse
    case tooLarge
    /// `NIMBUS_ARCHIVE_URL` is not a URL.
    case badConfiguration
    /// The server redirected elsewhere, or round in a loop.
    case redirected
    /// The connection broke off in the answer.
    case connectionLost
}

/// Climate normals of places; the live one asks Open-Meteo's historical (archive) API once per place
/// and keeps the answer for 90 days (normals do not change; a copy that was wrong does not stay).
public protocol ClimateNormalsRepository: Sendable {
    /// The place's normals: the kept copy when there is one and `refresh` is false, else asked for.
    func normals(for coordinate: Coordinate, refresh: Bool) -> AnyPublisher<ClimateNormals, ClimateError>
    /// Drops the place's kept copy: it could not be true (`ClimatePlausibility`).
    func forget(_ coordinate: Coordinate)
}

extension ClimateNormalsRepository {
    public func normals(for coordinate: Coordinate) -> AnyPublisher<ClimateNormals, ClimateError> {
        normals(for: coordinate, refresh: false)
    }
}

/// The normal high and low of a city for a date, and today's forecast against it.
public struct GetClimateNormalsUseCase: Sendable {
    private let repository: ClimateNormalsRepository

    public init(repository: ClimateNormalsRepository) { self.repository = repository }

    /// The normal of the city's calendar date `day`; `refresh` asks past the kept copy.
    /// Normals no climate at the city's latitude has are not believed, and their kept copy is dropped.
    public func execute(for city: City, on day: LocalDate, refresh: Bool = false) -> AnyPublisher<DayNormal, ClimateError> {
        let repository = self.repository
        let coordinate = city.coordinate
        return repository.normals(for: coordinate, refresh: refresh)
            .tryMap { normals -> DayNormal in
                guard normals.isPlausible(latitude: coordinate.latitude) else {
                    repository.forget(coordinate)
                    throw ClimateError.badResponse
                }
                guard let normal = normals.normal(on: day) else { throw ClimateError.badResponse }
                return normal
            }
            .mapError { ($0 as? ClimateError) ?? .badResponse }
            .eraseToAnyPublisher()
    }

    /// Today's forecast high and low against the normal for today's date at the city.
    public func compare(_ forecast: Forecast, for city: City) -> AnyPublisher<NormalComparison, ClimateError> {
        guard let today = forecast.today else { return Fail(error: .badResponse).eraseToAnyPublisher() }
        let repository = self.repository
        return execute(for: city, on: today.day)
            .tryMap { normal -> DayNormal in
                // A normal today's forecast is further from than any day has been is not believed.
                guard normal.isPlausible(againstHigh: today.high, low: today.low) else {
                    repository.forget(city.coordinate)
                    throw ClimateError.badResponse
                }
                return normal
            }
            .mapError { ($0 as? ClimateError) ?? .badResponse }
            .map { NormalComparison(normal: $0, todayHigh: today.high, todayLow: today.low) }
            .eraseToAnyPublisher()
    }

    /// Drops the city's kept normals (they could not be true beside its forecast).
    public func forget(_ city: City) { repository.forget(city.coordinate) }
}
