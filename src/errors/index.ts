export { BotshelfError } from './botshelf-error.js'
