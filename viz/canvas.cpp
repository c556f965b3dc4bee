#include "viz/canvas.hpp"

#include <algorithm>
#include <cmath>
#include <csetjmp>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <utility>

#include <ft2build.h>
#include FT_FREETYPE_H
#include <png.h>

#ifndef CACHESIM_DEFAULT_FONT
#define CACHESIM_DEFAULT_FONT "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
#endif

namespace cachesim::viz {

namespace {

std::uint8_t clamp_byte(double v) {
    if (!(v > 0.0)) return 0;
    if (v >= 255.0) return 255;
    return static_cast<std::uint8_t>(v + 0.5);
}

double clamp01(double t) { return t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t); }

// Decodes one UTF-8 code point; malformed bytes give U+FFFD and advance one byte.
char32_t next_code_point(std::string_view s, std::size_t& i) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    auto cont = [&](std::size_t k) -> int {
        if (i + k >= s.size()) return -1;
        const auto b = static_cast<unsigned char>(s[i + k]);
        return (b & 0xC0) == 0x80 ? (b & 0x3F) : -1;
    };
    if (b0 < 0x80) { ++i; return b0; }
    if ((b0 & 0xE0) == 0xC0) {
        const int c1 = cont(1);
        if (c1 >= 0) { i += 2; return static_cast<char32_t>(((b0 & 0x1F) << 6) | c1); }
    } else if ((b0 & 0xF0) == 0xE0) {
        const int c1 = cont(1), c2 = cont(2);
        if (c1 >= 0 && c2 >= 0) {
            i += 3;
            return static_cast<char32_t>(((b0 & 0x0F) << 12) | (c1 << 6) | c2);
        }
    } else if ((b0 & 0xF8) == 0xF0) {
        const int c1 = cont(1), c2 = cont(2), c3 = cont(3);
        if (c1 >= 0 && c2 >= 0 && c3 >= 0) {
            i += 4;
            return static_cast<char32_t>(((b0 & 0x07) << 18) | (c1 << 12) | (c2 << 6) | c3);
        }
    }
    ++i;
    return 0xFFFD;
}

// ---- Font: one FreeType face shared by the process, glyph bitmaps cached per pixel size. ----

struct Glyph {
    int left = 0, top = 0;          // bitmap offset from the pen position (top is up from baseline)
    int width = 0, rows = 0;
    int advance = 0;                // 26.6 fixed point
    unsigned index = 0;
    std::vector<std::uint8_t> coverage;
};

struct SizeMetrics {
    int ascent = 0, descent = 0;
};

class Font {
public:
    static Font& instance() {
        static Font font;
        return font;
    }

    std::mutex& mutex() { return mutex_; }

    // Requires the mutex held.
    void ensure_loaded() {
        if (face_) return;
        path_ = font_path();
        if (FT_Init_FreeType(&library_) != 0) throw std::runtime_error("FreeType: cannot initialise");
        if (FT_New_Face(library_, path_.c_str(), 0, &face_) != 0) {
            FT_Done_FreeType(library_);
            library_ = nullptr;
            face_ = nullptr;
            throw std::runtime_error(path_ + ": cannot load font (install fonts-dejavu-core or set CACHESIM_FONT)");
        }
        has_kerning_ = FT_HAS_KERNING(face_);
    }

    int pixel_size(double size_px) const {
        return std::clamp(static_cast<int>(std::lround(size_px)), 1, 1024);
    }

    void set_size(int px) {
        if (px != current_size_) {
            FT_Set_Pixel_Sizes(face_, 0, static_cast<FT_UInt>(px));
            current_size_ = px;
        }
    }

    SizeMetrics metrics(int px) {
        auto it = metrics_.find(px);
        if (it != metrics_.end()) return it->second;
        set_size(px);
        SizeMetrics m;
        m.ascent = static_cast<int>((face_->size->metrics.ascender + 63) >> 6);
        m.descent = static_cast<int>((-face_->size->metrics.descender + 63) >> 6);
        metrics_.emplace(px, m);
        return m;
    }

    const Glyph& glyph(int px, char32_t cp) {
        const auto key = (static_cast<std::uint64_t>(px) << 32) | cp;
        auto it = glyphs_.find(key);
        if (it != glyphs_.end()) return it->second;
        set_size(px);
        Glyph g;
        g.index = FT_Get_Char_Index(face_, cp);
        if (FT_Load_Glyph(face_, g.index, FT_LOAD_RENDER | FT_LOAD_TARGET_NORMAL) == 0) {
            const FT_GlyphSlot slot = face_->glyph;
            const FT_Bitmap& bm = slot->bitmap;
            g.left = slot->bitmap_left;
            g.top = slot->bitmap_top;
            g.width = static_cast<int>(bm.width);
            g.rows = static_cast<int>(bm.rows);
            g.advance = static_cast<int>(slot->advance.x);
            g.coverage.resize(static_cast<std::size_t>(g.width) * g.rows);
            for (int r = 0; r < g.rows; ++r) {
                const unsigned char* src = bm.buffer + static_cast<std::ptrdiff_t>(r) * bm.pitch;
                if (bm.pixel_mode == FT_PIXEL_MODE_GRAY) {
                    std::memcpy(&g.coverage[static_cast<std::size_t>(r) * g.width], src, g.width);
                } else if (bm.pixel_mode == FT_PIXEL_MODE_MONO) {
                    for (int c = 0; c < g.width; ++c)
                        g.coverage[static_cast<std::size_t>(r) * g.width + c] =
                            (src[c >> 3] & (0x80 >> (c & 7))) ? 255 : 0;
                }
            }
        }
        return glyphs_.emplace(key, std::move(g)).first->second;
    }

    int kerning(int px, unsigned left, unsigned right) {
        if (!has_kerning_ || left == 0 || right == 0) return 0;
        set_size(px);
        FT_Vector k{};
        if (FT_Get_Kerning(face_, left, right, FT_KERNING_DEFAULT, &k) != 0) return 0;
        return static_cast<int>(k.x);
    }

private:
    Font() = default;
    ~Font() {
        if (face_) FT_Done_Face(face_);
        if (library_) FT_Done_FreeType(library_);
    }

    std::mutex mutex_;
    FT_Library library_ = nullptr;
    FT_Face face_ = nullptr;
    bool has_kerning_ = false;
    int current_size_ = -1;
    std::string path_;
    std::map<int, SizeMetrics> metrics_;
    std::map<std::uint64_t, Glyph> glyphs_;
};

// A line of text rendered horizontally into a coverage mask. Baseline at y = ascent.
struct TextMask {
    TextExtent extent;
    int origin_x = 0;  // mask x of the pen's start (glyphs may overhang to the left)
    int baseline = 0;  // mask row of the baseline
    int width = 0, height = 0;
    std::vector<std::uint8_t> coverage;
};

TextMask layout_text(std::string_view utf8, double size_px, bool render) {
    Font& font = Font::instance();
    std::lock_guard lock(font.mutex());
    font.ensure_loaded();
    const int px = font.pixel_size(size_px);
    const SizeMetrics m = font.metrics(px);

    struct Placed { const Glyph* g; int pen; };  // pen in 26.6
    std::vector<Placed> placed;
    int pen = 0;
    unsigned prev = 0;
    int min_x = 0, max_x = 0;
    for (std::size_t i = 0; i < utf8.size();) {
        const char32_t cp = next_code_point(utf8, i);
        const Glyph& g = font.glyph(px, cp);
        pen += font.kerning(px, prev, g.index);
        placed.push_back({&g, pen});
        const int gx = ((pen + 32) >> 6) + g.left;
        min_x = std::min(min_x, gx);
        max_x = std::max(max_x, gx + g.width);
        pen += g.advance;
        prev = g.index;
    }
    TextMask mask;
    mask.extent.width = (pen + 63) >> 6;
    mask.extent.ascent = m.ascent;
    mask.extent.descent = m.descent;
    if (!render) return mask;

    max_x = std::max(max_x, mask.extent.width);
    mask.origin_x = -min_x;
    mask.width = max_x - min_x;
    // Glyphs may rise above the ascender or drop below the descender (accents): grow the mask.
    int top = m.ascent, bottom = m.descent;
    for (const Placed& p : placed) {
        top = std::max(top, p.g->top);
        bottom = std::max(bottom, p.g->rows - p.g->top);
    }
    mask.height = top + bottom;
    const int baseline = top;
    mask.extent.ascent = m.ascent;
    mask.coverage.assign(static_cast<std::size_t>(mask.width) * std::max(mask.height, 0), 0);
    for (const Placed& p : placed) {
        const Glyph& g = *p.g;
        const int gx = mask.origin_x + ((p.pen + 32) >> 6) + g.left;
        const int gy = baseline - g.top;
        for (int r = 0; r < g.rows; ++r) {
            const int y = gy + r;
            if (y < 0 || y >= mask.height) continue;
            for (int c = 0; c < g.width; ++c) {
                const int x = gx + c;
                if (x < 0 || x >= mask.width) continue;
                auto& dst = mask.coverage[static_cast<std::size_t>(y) * mask.width + x];
                dst = std::max(dst, g.coverage[static_cast<std::size_t>(r) * g.width + c]);
            }
        }
    }
    mask.baseline = baseline;
    return mask;
}

// Distance from point p to segment ab.
double segment_distance(double px, double py, double ax, double ay, double bx, double by) {
    const double dx = bx - ax, dy = by - ay;
    const double len2 = dx * dx + dy * dy;
    double t = len2 > 0.0 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0.0;
    t = clamp01(t);
    const double qx = ax + t * dx - px, qy = ay + t * dy - py;
    return std::sqrt(qx * qx + qy * qy);
}

}  // namespace

Rgba mix(Rgba a, Rgba b, double t) {
    t = clamp01(t);
    auto m = [t](std::uint8_t x, std::uint8_t y) { return clamp_byte(x + (static_cast<double>(y) - x) * t); };
    return {m(a.r, b.r), m(a.g, b.g), m(a.b, b.b), m(a.a, b.a)};
}

Rgba viridis(double t) {
    static constexpr Rgba stops[] = {{68, 1, 84, 255},    {71, 44, 122, 255},  {59, 81, 139, 255},
                                     {44, 113, 142, 255}, {33, 144, 141, 255}, {39, 173, 129, 255},
                                     {92, 200, 99, 255},  {170, 220, 50, 255}, {253, 231, 37, 255}};
    if (std::isnan(t)) return colors::gray;
    t = clamp01(t) * 8.0;
    const int i = std::min(static_cast<int>(t), 7);
    return mix(stops[i], stops[i + 1], t - i);
}

std::string font_path() {
    const char* env = std::getenv("CACHESIM_FONT");
    if (env && *env) return env;
    return CACHESIM_DEFAULT_FONT;
}

Canvas::Canvas(int width, int height, Rgba background) {
    if (width < 0 || height < 0) throw std::invalid_argument("Canvas: negative size");
    if (static_cast<std::int64_t>(width) * height > (std::int64_t{1} << 28))
        throw std::invalid_argument("Canvas: too many pixels");
    width_ = width;
    height_ = height;
    pixels_.resize(static_cast<std::size_t>(width) * height * 4);
    fill(background);
}

Rgba Canvas::pixel(int x, int y) const {
    if (x < 0 || y < 0 || x >= width_ || y >= height_) return colors::transparent;
    const std::uint8_t* p = &pixels_[(static_cast<std::size_t>(y) * width_ + x) * 4];
    return {p[0], p[1], p[2], p[3]};
}

void Canvas::set_pixel(int x, int y, Rgba c) {
    if (x < 0 || y < 0 || x >= width_ || y >= height_) return;
    std::uint8_t* p = &pixels_[(static_cast<std::size_t>(y) * width_ + x) * 4];
    p[0] = c.r; p[1] = c.g; p[2] = c.b; p[3] = c.a;
}

void Canvas::blend_pixel(int x, int y, Rgba c, double coverage) {
    if (x < 0 || y < 0 || x >= width_ || y >= height_) return;
    const double a = clamp01(coverage) * c.a / 255.0;
    if (a <= 0.0) return;
    std::uint8_t* p = &pixels_[(static_cast<std::size_t>(y) * width_ + x) * 4];
    if (a >= 1.0) { p[0] = c.r; p[1] = c.g; p[2] = c.b; p[3] = 255; return; }
    const double da = p[3] / 255.0;
    const double oa = a + da * (1.0 - a);
    auto ch = [&](std::uint8_t s, std::uint8_t d) {
        return clamp_byte((s * a + d * da * (1.0 - a)) / oa);
    };
    p[0] = ch(c.r, p[0]); p[1] = ch(c.g, p[1]); p[2] = ch(c.b, p[2]);
    p[3] = clamp_byte(oa * 255.0);
}

void Canvas::fill(Rgba c) {
    for (std::size_t i = 0; i < pixels_.size(); i += 4) {
        pixels_[i] = c.r; pixels_[i + 1] = c.g; pixels_[i + 2] = c.b; pixels_[i + 3] = c.a;
    }
}

void Canvas::fill_rect(int x, int y, int w, int h, Rgba c) {
    const int x0 = std::max(x, 0), y0 = std::max(y, 0);
    const int x1 = static_cast<int>(std::min<std::int64_t>(std::int64_t{x} + w, width_));
    const int y1 = static_cast<int>(std::min<std::int64_t>(std::int64_t{y} + h, height_));
    if (x0 >= x1 || y0 >= y1) return;
    if (c.a == 255) {
        for (int yy = y0; yy < y1; ++yy) {
            std::uint8_t* p = &pixels_[(static_cast<std::size_t>(yy) * width_ + x0) * 4];
            for (int xx = x0; xx < x1; ++xx, p += 4) { p[0] = c.r; p[1] = c.g; p[2] = c.b; p[3] = 255; }
        }
        return;
    }
    for (int yy = y0; yy < y1; ++yy)
        for (int xx = x0; xx < x1; ++xx) blend_pixel(xx, yy, c);
}

void Canvas::draw_rect(int x, int y, int w, int h, Rgba c, int thickness) {
    if (w <= 0 || h <= 0 || thickness <= 0) return;
    const int t = std::min({thickness, (w + 1) / 2, (h + 1) / 2});
    fill_rect(x, y, w, t, c);
    fill_rect(x, y + h - t, w, t, c);
    fill_rect(x, y + t, t, h - 2 * t, c);
    fill_rect(x + w - t, y + t, t, h - 2 * t, c);
}

void Canvas::hline(int x0, int x1, int y, Rgba c) {
    if (x0 > x1) std::swap(x0, x1);
    fill_rect(x0, y, x1 - x0 + 1, 1, c);
}

void Canvas::vline(int x, int y0, int y1, Rgba c) {
    if (y0 > y1) std::swap(y0, y1);
    fill_rect(x, y0, 1, y1 - y0 + 1, c);
}

void Canvas::draw_line(double x0, double y0, double x1, double y1, Rgba c, double thickness) {
    if (!std::isfinite(x0) || !std::isfinite(y0) || !std::isfinite(x1) || !std::isfinite(y1)) return;
    const double half = std::max(thickness, 0.0) / 2.0;
    const double reach = half + 1.0;
    // Walk the major axis; for each column (or row) only visit pixels near the segment.
    const bool steep = std::abs(y1 - y0) > std::abs(x1 - x0);
    auto plot = [&](int px, int py) {
        const double d = segment_distance(px + 0.5, py + 0.5, x0, y0, x1, y1);
        const double cov = half + 0.5 - d;
        if (cov > 0.0) blend_pixel(px, py, c, std::min(cov, 1.0) * (thickness < 1.0 ? std::max(thickness, 0.0) : 1.0));
    };
    if (!steep) {
        const double ax = std::min(x0, x1), bx = std::max(x0, x1);
        const int lo = std::max(static_cast<int>(std::floor(ax - reach)), 0);
        const int hi = std::min(static_cast<int>(std::ceil(bx + reach)), width_ - 1);
        const double slope = (x1 != x0) ? (y1 - y0) / (x1 - x0) : 0.0;
        const double spread = reach * std::sqrt(1.0 + slope * slope) + 1.0;
        for (int px = lo; px <= hi; ++px) {
            const double cx = std::clamp(px + 0.5, ax, bx);
            const double cy = (x1 != x0) ? y0 + (cx - x0) * slope : y0;
            const int ylo = std::max(static_cast<int>(std::floor(cy - spread)), 0);
            const int yhi = std::min(static_cast<int>(std::ceil(cy + spread)), height_ - 1);
            for (int py = ylo; py <= yhi; ++py) plot(px, py);
        }
    } else {
        const double ay = std::min(y0, y1), by = std::max(y0, y1);
        const int lo = std::max(static_cast<int>(std::floor(ay - reach)), 0);
        const int hi = std::min(static_cast<int>(std::ceil(by + reach)), height_ - 1);
        const double slope = (x1 - x0) / (y1 - y0);
        const double spread = reach * std::sqrt(1.0 + slope * slope) + 1.0;
        for (int py = lo; py <= hi; ++py) {
            const double cy = std::clamp(py + 0.5, ay, by);
            const double cx = x0 + (cy - y0) * slope;
            const int xlo = std::max(static_cast<int>(std::floor(cx - spread)), 0);
            const int xhi = std::min(static_cast<int>(std::ceil(cx + spread)), width_ - 1);
            for (int px = xlo; px <= xhi; ++px) plot(px, py);
        }
    }
}

void Canvas::draw_polyline(const std::vector<double>& xy, Rgba c, double thickness) {
    for (std::size_t i = 0; i + 3 < xy.size(); i += 2) draw_line(xy[i], xy[i + 1], xy[i + 2], xy[i + 3], c, thickness);
}

void Canvas::fill_circle(double cx, double cy, double radius, Rgba c) {
    if (!(radius > 0.0) || !std::isfinite(cx) || !std::isfinite(cy)) return;
    const int x0 = std::max(static_cast<int>(std::floor(cx - radius - 1)), 0);
    const int x1 = std::min(static_cast<int>(std::ceil(cx + radius + 1)), width_ - 1);
    const int y0 = std::max(static_cast<int>(std::floor(cy - radius - 1)), 0);
    const int y1 = std::min(static_cast<int>(std::ceil(cy + radius + 1)), height_ - 1);
    for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x) {
            const double d = std::hypot(x + 0.5 - cx, y + 0.5 - cy);
            const double cov = radius + 0.5 - d;
            if (cov > 0.0) blend_pixel(x, y, c, std::min(cov, 1.0));
        }
}

void Canvas::draw_circle(double cx, double cy, double radius, Rgba c, double thickness) {
    if (!(radius > 0.0) || !std::isfinite(cx) || !std::isfinite(cy)) return;
    const double half = std::max(thickness, 0.0) / 2.0;
    const double outer = radius + half + 1.0;
    const int x0 = std::max(static_cast<int>(std::floor(cx - outer)), 0);
    const int x1 = std::min(static_cast<int>(std::ceil(cx + outer)), width_ - 1);
    const int y0 = std::max(static_cast<int>(std::floor(cy - outer)), 0);
    const int y1 = std::min(static_cast<int>(std::ceil(cy + outer)), height_ - 1);
    for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x) {
            const double d = std::abs(std::hypot(x + 0.5 - cx, y + 0.5 - cy) - radius);
            const double cov = half + 0.5 - d;
            if (cov > 0.0) blend_pixel(x, y, c, std::min(cov, 1.0));
        }
}

void Canvas::blit(const Canvas& src, int x, int y) {
    for (int sy = 0; sy < src.height_; ++sy) {
        const int dy = y + sy;
        if (dy < 0 || dy >= height_) continue;
        for (int sx = 0; sx < src.width_; ++sx) {
            const int dx = x + sx;
            if (dx < 0 || dx >= width_) continue;
            const Rgba c = src.pixel(sx, sy);
            if (c.a == 255) set_pixel(dx, dy, c); else blend_pixel(dx, dy, c);
        }
    }
}

void Canvas::blit_scaled(const Canvas& src, int x, int y, int w, int h) {
    if (src.empty() || w <= 0 || h <= 0) return;
    for (int dy = std::max(y, 0); dy < std::min(y + h, height_); ++dy) {
        const int sy = static_cast<int>(static_cast<std::int64_t>(dy - y) * src.height_ / h);
        for (int dx = std::max(x, 0); dx < std::min(x + w, width_); ++dx) {
            const int sx = static_cast<int>(static_cast<std::int64_t>(dx - x) * src.width_ / w);
            const Rgba c = src.pixel(sx, sy);
            if (c.a == 255) set_pixel(dx, dy, c); else blend_pixel(dx, dy, c);
        }
    }
}

TextExtent measure_text(std::string_view utf8, double size_px) {
    return layout_text(utf8, size_px, false).extent;
}

TextExtent Canvas::draw_text(double x, double y, std::string_view utf8, const TextStyle& style) {
    const TextMask mask = layout_text(utf8, style.size_px, true);
    const TextExtent& e = mask.extent;
    // Anchor in text space, relative to the pen start on the baseline (y down).
    double ax = 0.0;
    if (style.halign == HAlign::center) ax = e.width / 2.0;
    else if (style.halign == HAlign::right) ax = e.width;
    double ay = 0.0;  // offset from baseline, y down
    switch (style.valign) {
        case VAlign::top: ay = -e.ascent; break;
        case VAlign::middle: ay = (e.descent - e.ascent) / 2.0; break;
        case VAlign::baseline: ay = 0.0; break;
        case VAlign::bottom: ay = e.descent; break;
    }
    const int base = mask.baseline;
    const double ox = std::round(x), oy = std::round(y);
    for (int r = 0; r < mask.height; ++r) {
        for (int c = 0; c < mask.width; ++c) {
            const std::uint8_t cov = mask.coverage[static_cast<std::size_t>(r) * mask.width + c];
            if (cov == 0) continue;
            // Text-space coordinates of this mask pixel relative to the anchor.
            const double tx = (c - mask.origin_x) - ax;
            const double ty = (r - base) - ay;
            int px, py;
            if (!style.vertical) {
                px = static_cast<int>(std::lround(ox + tx));
                py = static_cast<int>(std::lround(oy + ty));
            } else {
                // 90 degrees counter-clockwise: text x runs up the screen, text y runs right.
                px = static_cast<int>(std::lround(ox + ty));
                py = static_cast<int>(std::lround(oy - tx - 1));
            }
            blend_pixel(px, py, style.color, cov / 255.0);
        }
    }
    return e;
}

// ---- PNG ----

namespace {

void png_write_to_string(png_structp png, png_bytep data, png_size_t length) {
    auto* out = static_cast<std::string*>(png_get_io_ptr(png));
    out->append(reinterpret_cast<const char*>(data), length);
}

void png_flush_noop(png_structp) {}

[[noreturn]] void png_error_throw(png_structp png, png_const_charp message) {
    auto* text = static_cast<std::string*>(png_get_error_ptr(png));
    if (text) *text = message ? message : "unknown error";
    png_longjmp(png, 1);
}

void png_warning_ignore(png_structp, png_const_charp) {}

struct ReadCursor {
    std::string_view bytes;
    std::size_t pos = 0;
};

void png_read_from_view(png_structp png, png_bytep data, png_size_t length) {
    auto* cur = static_cast<ReadCursor*>(png_get_io_ptr(png));
    if (cur->bytes.size() - cur->pos < length) png_error(png, "truncated PNG data");
    std::memcpy(data, cur->bytes.data() + cur->pos, length);
    cur->pos += length;
}

}  // namespace

std::string encode_png(const Canvas& canvas) {
    if (canvas.empty()) throw std::runtime_error("PNG: cannot encode an empty canvas");
    std::string out;
    std::string error;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &error, png_error_throw, png_warning_ignore);
    if (!png) throw std::runtime_error("PNG: cannot create writer");
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_write_struct(&png, nullptr);
        throw std::runtime_error("PNG: cannot create writer");
    }
    std::vector<png_const_bytep> rows(static_cast<std::size_t>(canvas.height()));
    for (int y = 0; y < canvas.height(); ++y)
        rows[static_cast<std::size_t>(y)] = canvas.data() + static_cast<std::size_t>(y) * canvas.width() * 4;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        throw std::runtime_error("PNG: " + error);
    }
    png_set_write_fn(png, &out, png_write_to_string, png_flush_noop);
    png_set_IHDR(png, info, static_cast<png_uint_32>(canvas.width()), static_cast<png_uint_32>(canvas.height()), 8,
                 PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, 6);
    png_write_info(png, info);
    png_write_image(png, const_cast<png_bytepp>(rows.data()));
    png_write_end(png, nullptr);
    png_destroy_write_struct(&png, &info);
    return out;
}

Canvas decode_png(std::string_view bytes) {
    if (bytes.size() < 8 || png_sig_cmp(reinterpret_cast<png_const_bytep>(bytes.data()), 0, 8) != 0)
        throw std::runtime_error("PNG: not a PNG file");
    std::string error;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &error, png_error_throw, png_warning_ignore);
    if (!png) throw std::runtime_error("PNG: cannot create reader");
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_read_struct(&png, nullptr, nullptr);
        throw std::runtime_error("PNG: cannot create reader");
    }
    ReadCursor cursor{bytes, 0};
    // Declared before setjmp so longjmp never skips their destructors' bookkeeping.
    auto canvas = std::make_unique<Canvas>();
    std::vector<png_bytep> rows;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, nullptr);
        throw std::runtime_error("PNG: " + error);
    }
    png_set_read_fn(png, &cursor, png_read_from_view);
    png_read_info(png, info);
    const png_uint_32 w = png_get_image_width(png, info);
    const png_uint_32 h = png_get_image_height(png, info);
    const int color = png_get_color_type(png, info);
    const int depth = png_get_bit_depth(png, info);
    if (static_cast<std::uint64_t>(w) * h > (std::uint64_t{1} << 28)) png_error(png, "image too large");
    if (depth == 16) png_set_strip_16(png);
    if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (color == PNG_COLOR_TYPE_GRAY || color == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if (!(color & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS))
        png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    *canvas = Canvas(static_cast<int>(w), static_cast<int>(h), colors::transparent);
    rows.resize(h);
    for (png_uint_32 y = 0; y < h; ++y) rows[y] = canvas->data() + static_cast<std::size_t>(y) * w * 4;
    png_read_image(png, rows.data());
    png_read_end(png, nullptr);
    png_destroy_read_struct(&png, &info, nullptr);
    return std::move(*canvas);
}

}  // namespace cachesim::viz
