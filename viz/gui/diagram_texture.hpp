#pragma once
// A diagram on screen as one texture with one texel per visible cell bucket of the pyramid level
// that matches the zoom: the finest level whose cells are at least a pixel on screen, so that
// every texel shows (none falls between two pixel centres) and a miss is visible at any zoom.
// The texture is addressed modulo its size (a torus), so panning writes only the newly exposed
// cells; a zoom that changes the level, a new diagram or a resize rewrites the visible cells once.
// Drawn through ImGui as up to four textured quads. Texels are coloured as the PNG colours its
// pixels (viz/cell_colouring.hpp): the aggregation rule, the miss-density ramp, colour by SM.
#include <SFML/Graphics/Texture.hpp>
#include <cstdint>
#include <memory>
#include <vector>

#include "viz/cell_colouring.hpp"
#include "viz/diagram.hpp"

struct ImDrawList;

namespace cachesim::viz::gui {

// The part of the diagram shown: steps [t0, t1) and rows [r0, r1) on a width x height pixel area.
struct Viewport {
    double t0 = 0, t1 = 1, r0 = 0, r1 = 1;
    int width = 1, height = 1;
};

class DiagramTexture {
public:
    void set_diagram(std::shared_ptr<const Diagram> diagram);
    // A difference view: the cells of `diagram` where `other` (same steps, rows and cell sizes)
    // shows another state are drawn in kDifferent, the others in a pale tint of their state.
    void set_difference(std::shared_ptr<const Diagram> diagram, std::shared_ptr<const Diagram> other);
    static constexpr Rgba kDifferent{231, 41, 138, 255};
    static Rgba pale(Rgba c) { return {static_cast<std::uint8_t>(c.r / 4 + 191), static_cast<std::uint8_t>(c.g / 4 + 191),
                                       static_cast<std::uint8_t>(c.b / 4 + 191), 255}; }
    // True when two diagrams have the same shape (a difference view can compare them cell by cell).
    static bool same_shape(const Diagram& a, const Diagram& b);
    const std::shared_ptr<const Diagram>& diagram() const { return diagram_; }

    // How cells that share a texel are shown (the PNG's --aggregate) and what else colours them
    // (the PNG's --colour-by: SMs or hit sources, where the run recorded them); a change
    // recolours the view.
    void set_colouring(AggregateRule rule, ColourBy by);
    // The colouring in effect after the last update: the rule, whether the density ramp is on and
    // its range. The range spans the visible texels' densities, widened to powers of two so that
    // panning seldom changes it (a change recolours the visible texels).
    const CellColouring& colouring() const { return colouring_; }
    // The last update's texels stand for more than one recorded cell (the rule matters).
    bool aggregated() const { return aggregated_; }

    // Brings the texture up to date for `view`; returns the number of texels written.
    std::size_t update(const Viewport& view);
    // Draws the view's cells with the top-left corner of the view at (x, y) in screen pixels.
    void draw(ImDrawList* list, float x, float y, const Viewport& view) const;

    int time_level() const { return lt_; }
    // Cell buckets (texels) the last update made visible.
    std::uint64_t visible_texels() const { return valid_.empty() ? 0 : (valid_.c1 - valid_.c0) * (valid_.r1 - valid_.r0); }
    int row_level() const { return lr_; }

private:
    struct Range {
        std::uint64_t c0 = 0, c1 = 0, r0 = 0, r1 = 0;  // cells at the current level
        bool empty() const { return c0 >= c1 || r0 >= r1; }
    };
    Range visible(const Viewport& view, int lt, int lr) const;
    void choose_levels(const Viewport& view, int& lt, int& lr) const;
    // Computes the texels' codes, densities and tags into the CPU copy; upload() colours and sends them.
    void compute(std::uint64_t c0, std::uint64_t c1, std::uint64_t r0, std::uint64_t r1);
    std::size_t upload(std::uint64_t c0, std::uint64_t c1, std::uint64_t r0, std::uint64_t r1);
    // L1 fetches in base-count blocks [c0, c1) x [b0, b1) from the summed-area table (built on first use).
    std::uint64_t count_sum(std::uint64_t c0, std::uint64_t c1, std::uint64_t b0, std::uint64_t b1);
    std::size_t at(std::uint64_t c, std::uint64_t r) const { return static_cast<std::size_t>((r % th_) * tw_ + c % tw_); }

    std::shared_ptr<const Diagram> diagram_, other_;
    sf::Texture texture_;
    unsigned tw_ = 0, th_ = 0;
    int lt_ = -1, lr_ = -1;
    Range valid_;
    std::vector<std::uint8_t> scratch_;
    // Per texel of the torus: its code, density (misses per step x line) and tag (in a
    // difference view: 1 where the other diagram shows another state).
    std::vector<std::uint8_t> codes_, tags_;
    std::vector<float> densities_;
    // Summed-area table of the diagram's miss counts, modulo 2^32 (exact for any block holding
    // fewer than 2^32 misses): (columns + 1) x (buckets + 1), so a texel's count costs four reads.
    std::vector<std::uint32_t> count_table_;
    std::vector<std::uint32_t> votes_ = std::vector<std::uint32_t>(256, 0);
    AggregateRule rule_ = AggregateRule::density;
    ColourBy by_ = ColourBy::state;
    CellColouring colouring_;
    bool aggregated_ = false;
};

}  // namespace cachesim::viz::gui
