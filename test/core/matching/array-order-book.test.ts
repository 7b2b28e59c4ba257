// ArrayOrderBook, the production book, keeps the OrderBook contract.
import { bookFactory } from '../../support/books.js';
import { orderBookContract } from './order-book.contract.js';

orderBookContract('ArrayOrderBook', bookFactory('ArrayOrderBook'));
