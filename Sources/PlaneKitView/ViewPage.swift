/// The view's page: HTML that loads three.js (served from Debian's `libjs-three`), its orbit
/// controls and ``script``. Kept in the binary, so `planekit` needs no resource files beside it.
enum ViewPage {
    /// The page.
    static let html = #"""
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <title>PlaneKit view</title>
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <style>
      html, body { margin: 0; height: 100%; overflow: hidden; background: #15171c; color: #dde; font: 13px/1.4 system-ui, sans-serif; }
      canvas { display: block; }
      #panel { position: absolute; top: 8px; left: 8px; padding: 6px 9px; background: rgba(20, 22, 28, 0.78); border-radius: 4px; max-width: 320px; }
      #status { white-space: pre; font-variant-numeric: tabular-nums; }
      #legend { margin-top: 4px; max-height: 40vh; overflow: auto; }
      #legend div { white-space: nowrap; }
      #legend span.swatch { display: inline-block; width: 10px; height: 10px; margin-right: 5px; vertical-align: -1px; }
      #labels { position: absolute; inset: 0; pointer-events: none; overflow: hidden; }
      #labels div { position: absolute; transform: translate(-50%, -50%); font-size: 11px; color: #fff; text-shadow: 0 0 3px #000, 0 0 2px #000; white-space: nowrap; }
      #error { position: absolute; bottom: 8px; left: 8px; color: #f88; }
    </style>
    </head>
    <body>
    <div id="labels"></div>
    <div id="panel"><div id="status">connecting…</div><div id="legend"></div></div>
    <div id="error"></div>
    <script src="/three.min.js"></script>
    <script src="/OrbitControls.js"></script>
    <script src="/view.js"></script>
    </body>
    </html>
    """#
}
