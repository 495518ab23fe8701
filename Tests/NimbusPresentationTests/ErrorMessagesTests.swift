import TestSupport
import NimbusData
import Testing
import NimbusDomain
@testable import NimbusPresentation

/// Every kind of failure says what happened, in its own words, in every language.
@Suite struct ErrorMessagesTests {
    static let weatherErrors: [WeatherError] = [.offline, .timedOut, .rateLimited, .server(status: 500), .badResponse,
                                                .badConfiguration, .connectionLost, .tooLarge, .badReply, .redirected]
    static let movieErrors: [MovieError] = [.offline, .timedOut, .connectionLost, .tooLarge, .badReply, .redirected,
                                            .unauthorized, .rateLimited, .server(status: 500), .badResponse, .notFound,
                                            .sourceUnavailable(.tmdb), .sourceUnavailable(.catalogue), .storage]

    @Test(arguments: [Language.en, .ko, .ja])
    func eachWeatherErrorHasItsOwnMessage(_ language: Language) {
        let format = WeatherFormatter(l10n: L10n.bundled(language), units: .metric, zones: SystemZoneDatabase.forTests)
        let messages = Self.weatherErrors.map(format.message)
        #expect(Set(messages).count == messages.count, "\(messages)")
        #expect(messages.allSatisfy { !$0.isEmpty && !$0.contains("weather.error") })
        // Only a bad address blames the setting.
        for (error, message) in zip(Self.weatherErrors, messages) where error != .badConfiguration {
            #expect(!message.contains("NIMBUS_WEATHER_URL"), "\(error)")
        }
    }

    @Test(arguments: [Language.en, .ko, .ja])
    func eachMovieErrorHasItsOwnMessage(_ language: Language) {
        let l10n = L10n.bundled(language)
        let messages = Self.movieErrors.map(l10n.describe)
        #expect(Set(messages).count == messages.count, "\(messages)")
        #expect(messages.allSatisfy { !$0.isEmpty && !$0.contains("movies.error") })
    }
}
