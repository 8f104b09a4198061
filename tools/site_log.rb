# frozen_string_literal: true

# The site's own game log of an 18xx.games export, one entry a line: "<action id>\t<text>".
# A development tool over the referee (../shared/referee, the site's engine run as a black box):
#   ruby tools/site_log.rb FILE
# tests/referee/test_events_site_log.py checks our events (engine/events.py) against it.
require_relative File.join(ENV.fetch('RAIL_REFEREE', File.join(__dir__, '..', '..', 'shared', 'referee')), 'referee.rb')

game = Engine::Game.load(JSON.parse(File.read(ARGV.fetch(0))))
game.log.each { |entry| OUT.puts "#{entry.action_id}\t#{entry.message}" }
