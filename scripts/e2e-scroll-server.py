#!/usr/bin/env python3
"""A loopback server for the e2e check that scrolled lists equal a fresh draw (scripts/e2e-tmux.sh).

Answers what the lists need, and keeps answering the same, so that two pictures of a screen taken a
moment apart agree: forecasts for any number of places (the lists' temperatures; a single place gets
the tapes' Seoul forecast), the tapes' air quality and past weather, a USGS feed of 60 events made from the tapes'
fixture, and the tapes' NWS warnings for Seattle with their times moved to now (in force), the storm
warning's text repeated so that it scrolls. Prints its port on the first line.

usage: e2e-scroll-server.py FIXTURES_DIR
"""
import datetime
import http.server
import json
import sys
import urllib.parse

fixtures = sys.argv[1]


def read(name):
    with open(f"{fixtures}/{name}", "rb") as f:
        return f.read()


seoul = read("open-meteo-seoul.json")
air = read("open-meteo-air-seoul.json")
archive = read("open-meteo-archive-seoul.json")
now = datetime.datetime.now(datetime.timezone.utc)


def quake_feed():
    feed = json.loads(read("usgs-2.5_day.geojson"))
    template = feed["features"][0]
    places = ["Pohang, South Korea", "Hualien City, Taiwan", "Lima, Peru", "Anchorage, Alaska",
              "Santiago, Chile", "Manila, Philippines", "Padang, Indonesia", "Patras, Greece"]
    features = []
    for i in range(60):
        f = json.loads(json.dumps(template))
        f["id"] = f"scroll{i}"
        p = f["properties"]
        p["time"] = int(now.timestamp() * 1000) - (i + 1) * 600_000
        p["updated"] = p["time"] + 60_000
        p["mag"] = round(2.5 + (i * 37 % 40) / 10, 1)
        p["place"] = f"{5 + i * 7 % 90} km {['N', 'S', 'E', 'W', 'NE', 'SW'][i % 6]} of {places[i % len(places)]}"
        p["title"] = f"M {p['mag']} - {p['place']}"
        f["geometry"]["coordinates"] = [round(-170 + i * 5.7, 2), round(-55 + i * 1.9, 2), 10.0]
        features.append(f)
    feed["features"] = features
    feed["metadata"]["count"] = len(features)
    feed["metadata"]["generated"] = int(now.timestamp() * 1000)
    return json.dumps(feed).encode()


def warnings_in_force():
    """The tape plays these at 2026-01-15 19:30 -08:00: every time moves by now minus that."""
    text = read("warnings/nws-active.json").decode()
    shift = now - datetime.datetime(2026, 1, 16, 3, 30, tzinfo=datetime.timezone.utc)
    pacific = datetime.timezone(datetime.timedelta(hours=-8))

    def moved(value):
        try:
            return (datetime.datetime.fromisoformat(value) + shift).astimezone(pacific).isoformat()
        except (TypeError, ValueError):
            return value

    document = json.loads(text)
    for feature in document["features"]:
        p = feature["properties"]
        for key in ("sent", "effective", "onset", "expires", "ends"):
            if p.get(key):
                p[key] = moved(p[key])
    first = document["features"][0]["properties"]
    first["description"] = "\n\n".join([first["description"]] * 4)
    return json.dumps(document).encode()


quakes = quake_feed()
warnings = warnings_in_force()


def forecast(query):
    latitudes = query.get("latitude", [""])[0].split(",")
    longitudes = query.get("longitude", [""])[0].split(",")
    if len(latitudes) <= 1:
        return seoul
    start = int(now.replace(hour=0, minute=0, second=0, microsecond=0).timestamp())
    places = []
    for i, (lat, lon) in enumerate(zip(latitudes, longitudes)):
        places.append({
            "latitude": float(lat), "longitude": float(lon), "utc_offset_seconds": 0, "timezone": "GMT",
            "current": {"time": int(now.timestamp()) // 900 * 900, "interval": 900,
                        "temperature_2m": round(10 + (i * 7 % 20) + 0.4, 1), "weather_code": [0, 2, 3, 61][i % 4]},
            "daily": {"time": [start], "weather_code": [[0, 2, 3, 61][i % 4]],
                      "temperature_2m_max": [round(18 + i % 9, 1)], "temperature_2m_min": [round(8 + i % 7, 1)]},
        })
    return json.dumps(places).encode()


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        query = urllib.parse.parse_qs(url.query)
        body = {
            "/v1/forecast": lambda: forecast(query),
            "/v1/air-quality": lambda: air,
            "/v1/archive": lambda: archive,
            "/earthquakes/feed/v1.0/summary/2.5_day.geojson": lambda: quakes,
            "/alerts/active": lambda: warnings,
        }.get(url.path)
        if body is None:
            self.send_error(404)
            return
        data = body()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
