//! A small hand-written SVG line chart for the reproductions' figures: linear or log₁₀ axes, one
//! polyline with markers per series, a legend. No dependencies; the output is a standalone file.

use std::fmt::Write;

/// One curve of a [`Chart`].
#[derive(Clone, Debug, Default)]
pub struct Series {
    /// Legend label.
    pub name: String,
    /// Points `(x, y)`, drawn in order.
    pub points: Vec<(f64, f64)>,
    /// Draw the line dashed (the paper's convention for a second family of curves).
    pub dashed: bool,
}

/// A line chart with titled axes.
#[derive(Clone, Debug, Default)]
pub struct Chart {
    /// Title above the plot.
    pub title: String,
    /// Label of the horizontal axis.
    pub x_label: String,
    /// Label of the vertical axis.
    pub y_label: String,
    /// Logarithmic horizontal axis.
    pub x_log: bool,
    /// Logarithmic vertical axis.
    pub y_log: bool,
    /// The curves.
    pub series: Vec<Series>,
}

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 480.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 200.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 60.0;
const COLOURS: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
];

/// One axis: data range, scale and where it maps on the page.
struct Axis {
    lo: f64,
    hi: f64,
    log: bool,
    from: f64,
    to: f64,
}

impl Axis {
    fn new(values: impl Iterator<Item = f64>, log: bool, from: f64, to: f64) -> Axis {
        let t = |v: f64| if log { v.max(1e-12).log10() } else { v };
        let (mut lo, mut hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(t(v)), hi.max(t(v)))
        });
        if !lo.is_finite() {
            (lo, hi) = (0.0, 1.0);
        }
        if log {
            // Whole decades, so the grid lines are 10^k.
            (lo, hi) = (lo.floor(), hi.ceil().max(lo.floor() + 1.0));
        } else if hi - lo < 1e-9 {
            hi = lo + 1.0;
        }
        Axis {
            lo,
            hi,
            log,
            from,
            to,
        }
    }

    fn map(&self, v: f64) -> f64 {
        let v = if self.log { v.max(1e-12).log10() } else { v };
        self.from + (v - self.lo) / (self.hi - self.lo) * (self.to - self.from)
    }

    /// Tick values (data units) with their labels.
    fn ticks(&self) -> Vec<(f64, String)> {
        if self.log {
            return (self.lo as i32..=self.hi as i32)
                .map(|k| (10f64.powi(k), format!("1e{k}")))
                .collect();
        }
        let raw = (self.hi - self.lo) / 8.0;
        let step = [1.0, 2.0, 5.0, 10.0]
            .iter()
            .map(|m| m * 10f64.powf(raw.log10().floor()))
            .find(|s| *s >= raw)
            .unwrap_or(raw);
        let mut v = (self.lo / step).ceil() * step;
        let mut ticks = Vec::new();
        while v <= self.hi + 1e-9 {
            ticks.push((v, format!("{}", (v * 1000.0).round() / 1000.0)));
            v += step;
        }
        ticks
    }
}

impl Chart {
    /// The chart as a standalone SVG document.
    pub fn to_svg(&self) -> String {
        let points = || self.series.iter().flat_map(|s| s.points.iter());
        let x = Axis::new(points().map(|p| p.0), self.x_log, LEFT, WIDTH - RIGHT);
        let y = Axis::new(points().map(|p| p.1), self.y_log, HEIGHT - BOTTOM, TOP);
        let mut out = String::new();
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" font-family="sans-serif" font-size="12">"#
        );
        let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
        let _ = writeln!(
            out,
            r#"<text x="{}" y="22" text-anchor="middle" font-size="14">{}</text>"#,
            (LEFT + WIDTH - RIGHT) / 2.0,
            escape(&self.title)
        );
        for (v, label) in x.ticks() {
            let px = x.map(v);
            let _ = writeln!(
                out,
                r##"<line x1="{px:.1}" y1="{TOP}" x2="{px:.1}" y2="{:.1}" stroke="#ddd"/><text x="{px:.1}" y="{:.1}" text-anchor="middle">{label}</text>"##,
                HEIGHT - BOTTOM,
                HEIGHT - BOTTOM + 16.0
            );
        }
        for (v, label) in y.ticks() {
            let py = y.map(v);
            let _ = writeln!(
                out,
                r##"<line x1="{LEFT}" y1="{py:.1}" x2="{:.1}" y2="{py:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{label}</text>"##,
                WIDTH - RIGHT,
                LEFT - 6.0,
                py + 4.0
            );
        }
        let _ = writeln!(
            out,
            r#"<rect x="{LEFT}" y="{TOP}" width="{:.1}" height="{:.1}" fill="none" stroke="black"/>"#,
            WIDTH - RIGHT - LEFT,
            HEIGHT - BOTTOM - TOP
        );
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            (LEFT + WIDTH - RIGHT) / 2.0,
            HEIGHT - 18.0,
            escape(&self.x_label)
        );
        let _ = writeln!(
            out,
            r#"<text transform="translate(22,{:.1}) rotate(-90)" text-anchor="middle">{}</text>"#,
            (TOP + HEIGHT - BOTTOM) / 2.0,
            escape(&self.y_label)
        );
        for (i, s) in self.series.iter().enumerate() {
            self.draw_series(&mut out, s, COLOURS[i % COLOURS.len()], i, &x, &y);
        }
        out.push_str("</svg>\n");
        out
    }

    fn draw_series(
        &self,
        out: &mut String,
        s: &Series,
        colour: &str,
        i: usize,
        x: &Axis,
        y: &Axis,
    ) {
        let dash = if s.dashed {
            r#" stroke-dasharray="6,4""#
        } else {
            ""
        };
        let path: Vec<String> = s
            .points
            .iter()
            .map(|&(px, py)| format!("{:.1},{:.1}", x.map(px), y.map(py)))
            .collect();
        let _ = writeln!(
            out,
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="1.5"{dash}/>"#,
            path.join(" ")
        );
        for &(px, py) in &s.points {
            let _ = writeln!(
                out,
                r#"<circle cx="{:.1}" cy="{:.1}" r="2.5" fill="{colour}"/>"#,
                x.map(px),
                y.map(py)
            );
        }
        let ly = TOP + 10.0 + 18.0 * i as f64;
        let lx = WIDTH - RIGHT + 12.0;
        let _ = writeln!(
            out,
            r#"<line x1="{lx}" y1="{ly}" x2="{}" y2="{ly}" stroke="{colour}" stroke-width="1.5"{dash}/><text x="{}" y="{}">{}</text>"#,
            lx + 24.0,
            lx + 30.0,
            ly + 4.0,
            escape(&s.name)
        );
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_axis_spans_whole_decades_and_maps_monotonically() {
        let axis = Axis::new([3.0, 4500.0].into_iter(), true, 0.0, 300.0);
        assert_eq!((axis.lo, axis.hi), (0.0, 4.0));
        assert_eq!(axis.ticks().len(), 5);
        assert!(axis.map(10.0) < axis.map(100.0));
        assert_eq!(axis.map(1.0), 0.0);
    }

    #[test]
    fn chart_is_a_complete_svg_with_one_polyline_per_series() {
        let chart = Chart {
            title: "a < b".into(),
            y_log: true,
            series: vec![
                Series {
                    name: "AB".into(),
                    points: vec![(1.0, 5.0), (2.0, 17.0)],
                    dashed: false,
                },
                Series {
                    name: "FE".into(),
                    points: vec![(1.0, 5.0), (2.0, 16.0)],
                    dashed: true,
                },
            ],
            ..Chart::default()
        };
        let svg = chart.to_svg();
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert!(svg.contains("a &lt; b") && svg.contains("stroke-dasharray"));
    }
}
