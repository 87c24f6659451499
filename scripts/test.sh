#!/usr/bin/env bash
# The test suite: set up prerequisites when missing, then run every test
# (unit tests, integration tests that run the real binary and a real JVM)
# on the default JDK (17), then the tests of the executor, the sandbox, the
# instrumentation, verification and generation once more on the newest JDK
# 21+ in /usr/lib/jvm, when there is one (issue 12: JDK 20+ has no
# Thread.stop).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo test --workspace --release "$@"

newest=""
newest_version=0
for home in /usr/lib/jvm/*; do
  [ -x "$home/bin/javac" ] && [ -f "$home/release" ] || continue
  version=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$home/release")
  if [ -n "$version" ] && [ "$version" -ge 21 ] && [ "$version" -gt "$newest_version" ]; then
    newest=$home
    newest_version=$version
  fi
done
if [ -z "$newest" ]; then
  echo "test.sh: no JDK 21 or later in /usr/lib/jvm: the second pass on a modern JDK is skipped" >&2
  exit 0
fi
echo "test.sh: again on JDK $newest_version ($newest)" >&2
# The tests of `generate` that check what values and calls the search makes
# (seeds, reflection, fields, collections, returned objects, generic types)
# or what the search and the output folder do do not depend on the JDK that
# runs them: they run once, on the first pass.
same_on_every_jdk=(
  strings_compared_at_run_time_become_seeds nested_classes_are_part_of_the_class_under_test
  prefixes_suffixes_and_case_insensitive_words_become_seeds class_values_methods_and_lambdas
  parameterized_generic_array_and_variable_types the_class_literals_a_class_compares_with
  constants_of_the_classes_a_class_calls_are_seeds strings_that_join_several_constants
  public_fields_of_argument_objects_are_written collections_in_public_final_fields_are_filled
  numbers_compared_at_run_time_become_seeds objects_returned_by_the_class_under_test_are_called
  temporary_files_get_lines_of_text strings_can_name_the_tests_temporary_file line_edits_build_a_file_of_sections
  substitutions_write_the_compared_header_where_the_line_stood
  objects_configured_by_fluent_calls what_is_written_into_a_string_builder
  returned_arrays_and_exception_messages_are_asserted objects_that_define_equality
  strings_of_numbers_beyond_a_constant_come_from_numeric_seeds characters_a_called_scanner_compares_with
  every_algorithm_produces_a_passing_suite generic_classes_and_wildcard_containers_need_no_raw_types
  the_output_folder_holds_only_test_sources the_search_runs_until_its_budget_while_goals_remain
  a_class_made_only_by_a_returned_factory a_serialization_round_trip_reaches_write_object
  a_relative_class_path_works tests_of_a_sealed_package_live_in_a_subpackage
)
skips=()
for name in "${same_on_every_jdk[@]}"; do skips+=(--skip "$name"); done
# `--workspace`, as on the first pass: the same features, so nothing is
# built again (`-p ferrosuite` alone would resolve them anew).
JAVA_HOME=$newest cargo test --workspace --release "$@" \
  --test hostile --test executor --test rogue --test instrument_differential \
  --test environment --test static_reset --test verification --test generate -- "${skips[@]}"
