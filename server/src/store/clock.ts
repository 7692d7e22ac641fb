// The clock type and the real clock live once, in the light package; the stores and adapters import them from here.
export { systemClock, type Clock } from 'botshelf/api'
