// Every enum's table (sim/enum_choices.hpp): each value's name parses back to the value, names
// are distinct, and every value of the enum is in its table.
#include <gtest/gtest.h>

#include <set>

#include "apps/common/model_kind.hpp"
#include "sim/gpu/gpu_config.hpp"
#include "sim/gpu/gpu_parameters.hpp"
#include "sim/policy_kind.hpp"

namespace cachesim {
namespace {

// `count`: how many values the enum has (from its declaration, not from the table).
template <class E, std::size_t N, class Name, class Parse>
void expect_round_trip(const EnumChoice<E> (&table)[N], std::size_t count, Name name, Parse parse) {
    EXPECT_EQ(N, count);
    std::set<std::string_view> names;
    std::set<int> values;
    for (const EnumChoice<E>& c : table) {
        EXPECT_EQ(name(c.value), c.name);
        EXPECT_EQ(parse(name(c.value)), std::optional<E>(c.value)) << c.name;
        EXPECT_TRUE(names.insert(c.name).second) << c.name;
        values.insert(static_cast<int>(c.value));
        EXPECT_FALSE(c.help.empty()) << c.name;
    }
    for (std::size_t v = 0; v < count; ++v) EXPECT_TRUE(values.count(static_cast<int>(v))) << v;
    EXPECT_FALSE(parse("no-such-name").has_value());
}

TEST(EnumChoices, NamesParseBack) {
    expect_round_trip(kCtaOrderChoices, 4, cta_order_name, parse_cta_order);
    expect_round_trip(kCtaRefillChoices, 2, cta_refill_name, parse_cta_refill);
    expect_round_trip(kWarpSchedulerChoices, 2, warp_scheduler_name, parse_warp_scheduler);
    expect_round_trip(kPartitionMapChoices, 3, partition_map_name, parse_partition_map);
    expect_round_trip(kPartitionFillChoices, 2, partition_fill_name, parse_partition_fill);
    expect_round_trip(kCoalesceScopeChoices, 4, coalesce_scope_name, parse_coalesce_scope);
    expect_round_trip(kPolicyChoices, 6, policy_name, parse_policy);
    expect_round_trip(cli::kModelChoices, 2, cli::model_name, cli::parse_model);
    expect_round_trip(kProvenanceChoices, 5, provenance_name,
                      [](std::string_view text) { return parse_choice<Provenance>(kProvenanceChoices, text); });
}

TEST(EnumChoices, AliasesStillParse) {
    EXPECT_EQ(parse_cta_order("rr"), CtaOrder::round_robin);
    EXPECT_EQ(parse_warp_scheduler("round-robin"), WarpScheduler::lrr);
    EXPECT_EQ(cta_order_name(CtaOrder::round_robin), "round-robin");
}

TEST(EnumChoices, MessagesListTheChoices) {
    EXPECT_EQ(choice_list(choice_texts<CoalesceScope>(kCoalesceScopeChoices)), "tpc, pairs, neighbours or all");
    EXPECT_EQ(choice_list(choice_texts<CtaRefill>(kCtaRefillChoices)), "shuffled or sm-order");
}

}  // namespace
}  // namespace cachesim
