import Foundation
import NimbusData
import TestSupport

extension HTTPClientDouble.Reply {
    /// Open-Meteo's answer to a batch of places: 21.4° now at each place the request names.
    static func mildBatch(for request: HTTPRequest) -> Self {
        let entries = zip(request.url.queryValues("latitude"), request.url.queryValues("longitude")).map { lat, lon in
            #"{"latitude":\#(lat),"longitude":\#(lon),"current":{"time":0,"temperature_2m":21.4,"weather_code":0}}"#
        }
        return .json("[\(entries.joined(separator: ","))]")
    }
}
